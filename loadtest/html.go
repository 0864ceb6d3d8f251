package loadtest

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"sort"
	"strings"
)

// WriteHTML writes the report as one self-contained page: the plots are
// inline SVG drawn here, and the page loads nothing (no script, style
// sheet, font or image from anywhere).
func (r *Report) WriteHTML(w io.Writer) error {
	var table strings.Builder
	if err := r.WriteTable(&table); err != nil {
		return err
	}
	v := htmlView{R: r, Table: table.String(), Charts: r.charts()}
	return pageTemplate.Execute(w, v)
}

type htmlView struct {
	R      *Report
	Table  string
	Charts []chart
}

// chart is one plot: series over the run's seconds.
type chart struct {
	ID, Title, Unit string
	Series          []series
}

type series struct {
	Name string
	Y    []float64
}

// charts are the report's plots, from its timeline.
func (r *Report) charts() []chart {
	tl := r.Timeline
	pick := func(f func(Sample) float64) []float64 {
		out := make([]float64, len(tl))
		for i, s := range tl {
			out[i] = f(s)
		}
		return out
	}
	out := []chart{
		{ID: "throughput", Title: "Throughput", Unit: "acts/s", Series: []series{{"acts/s", pick(func(s Sample) float64 { return s.Acts })}}},
		{ID: "latency", Title: "Latency of every act", Unit: "ms", Series: []series{
			{"p50", pick(func(s Sample) float64 { return s.P50 })},
			{"p90", pick(func(s Sample) float64 { return s.P90 })},
			{"p99", pick(func(s Sample) float64 { return s.P99 })}}},
	}
	actions, faults := labels(tl, func(s Sample) map[string]Point { return s.Actions }), labels(tl, func(s Sample) map[string]Point { return s.Faults })
	per := func(names []string, of func(Sample) map[string]Point, val func(Point) float64) []series {
		var ss []series
		for _, n := range names {
			ss = append(ss, series{n, pick(func(s Sample) float64 { return val(of(s)[n]) })})
		}
		return ss
	}
	rate, p99 := func(p Point) float64 { return p.Rate }, func(p Point) float64 { return p.P99 }
	acts, flt := func(s Sample) map[string]Point { return s.Actions }, func(s Sample) map[string]Point { return s.Faults }
	out = append(out,
		chart{ID: "actions-p99", Title: "p99 latency per action", Unit: "ms", Series: per(actions, acts, p99)},
		chart{ID: "actions-rate", Title: "Acts per action", Unit: "per s", Series: per(actions, acts, rate)},
		chart{ID: "faults-rate", Title: "Faults injected (owner controls, session crashes)", Unit: "per s", Series: per(faults, flt, rate)},
		chart{ID: "faults-p99", Title: "p99 latency of each owner control", Unit: "ms", Series: per(faults, flt, p99)},
		r.cpuChart(pick),
		chart{ID: "waits", Title: "How long this process's goroutines waited for a core (p99)", Unit: "ms",
			Series: []series{{"wait p99", pick(func(s Sample) float64 { return s.Wait })}}},
		chart{ID: "heap", Title: "Live heap of the process", Unit: "MB", Series: []series{{"heap", pick(func(s Sample) float64 { return float64(s.Heap) / (1 << 20) })}}},
	)
	return out
}

// cpuChart plots the CPU of this process, of the targets' own processes
// when their /metrics said, and of the host's other processes when the
// host's CPU time could be read.
func (r *Report) cpuChart(pick func(func(Sample) float64) []float64) chart {
	own := series{"cores", pick(func(s Sample) float64 { return s.CPU })}
	gc := series{"collector", pick(func(s Sample) float64 { return s.GC })}
	var c chart
	switch {
	case r.Target == "in-process":
		c = chart{ID: "cpu", Title: "CPU of the process (harness and in-process buddi)", Unit: "cores", Series: []series{own, gc}}
	case r.ServerCPU == 0:
		c = chart{ID: "cpu", Title: "CPU of the harness (the targets' own is on their hosts)", Unit: "cores", Series: []series{own}}
	default:
		own.Name = "harness"
		c = chart{ID: "cpu", Title: "CPU of the harness and of the targets' own processes", Unit: "cores",
			Series: []series{own, {"server", pick(func(s Sample) float64 { return s.Server })}}}
	}
	if r.Host != nil {
		c.Title += ", and of the host's other processes"
		c.Series = append(c.Series, series{"others", pick(func(s Sample) float64 { return s.Others })})
	}
	return c
}

// labels are the keys any sample has in the map f gives, sorted.
func labels(tl []Sample, f func(Sample) map[string]Point) []string {
	seen := map[string]bool{}
	for _, s := range tl {
		for k := range f(s) {
			seen[k] = true
		}
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// palette colours the series of one chart in turn.
var palette = []string{"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"}

// Plot dimensions, in SVG user units.
const (
	plotW, plotH       = 760.0, 220.0
	padL, padB, padTop = 56.0, 28.0, 10.0
)

// SVG draws the chart over the timeline's seconds as inline SVG.
func (c chart) SVG(at []float64) template.HTML {
	var b strings.Builder
	top := 0.0
	for _, s := range c.Series {
		for _, y := range s.Y {
			top = math.Max(top, y)
		}
	}
	top = niceTop(top)
	end := 1.0
	if len(at) > 0 {
		end = math.Max(at[len(at)-1], 1)
	}
	x := func(t float64) float64 { return padL + t/end*(plotW-padL-8) }
	y := func(v float64) float64 { return padTop + (1-v/top)*(plotH-padTop-padB) }
	fmt.Fprintf(&b, `<svg viewBox="0 0 %.0f %.0f" role="img" aria-label="%s">`, plotW, plotH, template.HTMLEscapeString(c.Title))
	for i := 0; i <= 4; i++ {
		v := top * float64(i) / 4
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" class="grid"/><text x="%.1f" y="%.1f" class="ax" text-anchor="end">%s</text>`,
			padL, plotW-8, y(v), y(v), padL-4, y(v)+4, axisLabel(v))
	}
	for i := 0; i <= 5; i++ {
		t := end * float64(i) / 5
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" class="ax" text-anchor="middle">%.0f s</text>`, x(t), plotH-8, t)
	}
	for i, s := range c.Series {
		var pts strings.Builder
		for j, v := range s.Y {
			if j < len(at) {
				fmt.Fprintf(&pts, "%.1f,%.1f ", x(at[j]), y(v))
			}
		}
		fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="1.5" points="%s"><title>%s</title></polyline>`,
			palette[i%len(palette)], pts.String(), template.HTMLEscapeString(s.Name))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String()) //nolint:gosec // built here from numbers and escaped names
}

// Colour is the colour of series i.
func (c chart) Colour(i int) string { return palette[i%len(palette)] }

// niceTop rounds v up to 1, 2 or 5 times a power of ten.
func niceTop(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if v <= m*p {
			return m * p
		}
	}
	return 10 * p
}

func axisLabel(v float64) string {
	switch {
	case v == 0:
		return "0"
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 1:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2f", v)
}

// At is the seconds of the timeline's samples.
func (v htmlView) At() []float64 {
	out := make([]float64, len(v.R.Timeline))
	for i, s := range v.R.Timeline {
		out[i] = s.At
	}
	return out
}

var pageTemplate = template.Must(template.New("report").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>buddi loadtest: {{.R.Conversations}} conversations, {{.R.Driver}} driver</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:24px auto;max-width:820px;color:#222}
h1{font-size:20px}h2{font-size:16px;margin-top:28px}
svg{width:100%;height:auto;background:#fafafa;border:1px solid #ddd}
.grid{stroke:#e2e2e2}.ax{font-size:10px;fill:#666}
.key span{display:inline-block;margin-right:12px}.key i{display:inline-block;width:14px;height:3px;vertical-align:middle;margin-right:4px}
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:2px 8px;text-align:left}
.pass{color:#1a7f37}.fail{color:#cf222e;font-weight:bold}
pre{background:#f6f6f6;padding:8px;overflow:auto;font-size:12px}
</style></head><body>
<h1>buddi loadtest: {{.R.Conversations}} conversations, {{.R.Driver}} driver, {{.R.Target}}</h1>
<p>{{.R.Acts}} acts in {{printf "%.1f" .R.Active}} s ({{printf "%.0f" .R.ActsPerSecond}} acts/s); p50 {{.R.AllActs.P50}} ms, p99 {{.R.AllActs.P99}} ms; {{.R.Restarts}} session restarts. {{if .R.Passed}}Every invariant held.{{else}}<b class="fail">An invariant broke.</b>{{end}}</p>
{{with .R.WithCollection}}{{if $.R.WithoutCollection}}<p>After the first quarter, acts answered in the {{printf "%.0f" .Seconds}} s in which the collector ran: p99 {{printf "%.2f" .P99}} ms; in the {{printf "%.0f" $.R.WithoutCollection.Seconds}} s without: p99 {{printf "%.2f" $.R.WithoutCollection.P99}} ms.{{with .Stop}} Of the seconds with a collection, {{printf "%.0f" .Seconds}} also had the owner's Stop of all sessions: p99 {{printf "%.2f" .P99}} ms.{{end}}{{with $.R.WithoutCollection.Stop}} Of those without, {{printf "%.0f" .Seconds}} had a Stop: p99 {{printf "%.2f" .P99}} ms.{{end}}</p>{{end}}{{end}}
{{with .R.Host}}<p>Other processes on this host after the first quarter: {{printf "%.2f" .Others}} cores on average, {{printf "%.2f" .OthersMax}} at most in a second, more than a fifth of a core in {{.NoisySeconds}} of {{printf "%.0f" .Seconds}} s; steal {{printf "%.2f" .Steal}} cores.</p>{{end}}
<h2 id="invariants">Invariants</h2>
<table><tr><th>invariant</th><th>status</th><th>checked</th><th>violations</th><th>what it checks</th></tr>
{{range .R.Invariants}}<tr><td>{{.Name}}</td><td class="{{.Status}}">{{.Status}}</td><td>{{.Checked}}</td><td>{{.Violations}}</td><td>{{.Text}}{{if .Note}} ({{.Note}}){{end}}{{range .Examples}}<br>{{.}}{{end}}</td></tr>
{{end}}</table>
{{$at := .At}}{{range .Charts}}
<h2 id="{{.ID}}">{{.Title}} <small>({{.Unit}}, a sample a second)</small></h2>
{{.SVG $at}}
<div class="key">{{$c := .}}{{range $i, $s := .Series}}<span><i style="background:{{$c.Colour $i}}"></i>{{$s.Name}}</span>{{end}}</div>
{{end}}
<h2 id="table">The report</h2>
<pre>{{.Table}}</pre>
</body></html>
`))
