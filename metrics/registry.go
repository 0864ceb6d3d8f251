package metrics

import (
	"bufio"
	"io"
	"sort"
	"sync"
)

// Registry holds the families /metrics shows, in the order they were added.
type Registry struct {
	mu   sync.Mutex
	fams []family
}

// family is one metric name: its help, type and how to write its samples.
type family struct {
	name, help, kind string
	write            func(w *writer)
}

// New returns an empty registry.
func New() *Registry { return &Registry{} }

func (r *Registry) add(name, help, kind string, write func(w *writer)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.fams = append(r.fams, family{name: name, help: help, kind: kind, write: write})
}

// Counter adds a counter family with the given label names.
func (r *Registry) Counter(name, help string, labels ...string) *CounterVec {
	v := &CounterVec{labels: labels, m: map[string]*counterEntry{}}
	r.add(name, help, "counter", func(w *writer) { v.write(w, name) })
	return v
}

// Histogram adds a histogram family of seconds with the given upper bounds.
func (r *Registry) Histogram(name, help string, bounds []float64) *Histogram {
	h := newHistogram(bounds)
	r.add(name, help, "histogram", func(w *writer) { h.write(w, name) })
	return h
}

// Emit is how a function-backed family reports one sample.
type Emit func(value float64, labelValues ...string)

// GaugeFunc adds a gauge family whose samples fn reports at each scrape.
func (r *Registry) GaugeFunc(name, help string, labels []string, fn func(Emit)) {
	r.add(name, help, "gauge", funcWriter(name, labels, fn))
}

// CounterFunc adds a counter family whose samples fn reports at each scrape:
// counts another part keeps, which must only grow.
func (r *Registry) CounterFunc(name, help string, labels []string, fn func(Emit)) {
	r.add(name, help, "counter", funcWriter(name, labels, fn))
}

func funcWriter(name string, labels []string, fn func(Emit)) func(w *writer) {
	return func(w *writer) {
		type sample struct {
			key   string
			vals  []string
			value float64
		}
		var got []sample
		fn(func(v float64, vals ...string) {
			got = append(got, sample{key: joinKey(vals), vals: vals, value: v})
		})
		sort.Slice(got, func(i, j int) bool { return got[i].key < got[j].key })
		for _, s := range got {
			w.sample(name, labels, s.vals, "", "", s.value)
		}
	}
}

// WriteTo writes every family in the text exposition format.
func (r *Registry) WriteTo(out io.Writer) (int64, error) {
	r.mu.Lock()
	fams := append([]family(nil), r.fams...)
	r.mu.Unlock()
	cw := &countingWriter{w: out}
	w := &writer{b: bufio.NewWriter(cw)}
	for _, f := range fams {
		w.header(f.name, f.help, f.kind)
		f.write(w)
	}
	err := w.b.Flush()
	return cw.n, err
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
