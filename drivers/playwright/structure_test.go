package playwright_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/drivers"
)

// What a read keeps of a page's structure: tables as rows under their
// columns, sections as the headings of the main content make them, lists
// of terms and code as they are laid out; and what find says of a match.

// tablePage is a page with a table of n rows (the second column of row 7
// a link) between two paragraphs.
func tablePage(n int) string {
	var b strings.Builder
	b.WriteString(`<main><h1>Codes</h1><p>Before the table.</p><table><caption>Codes</caption><thead><tr><th>Code</th><th>Name</th><th>Notes</th></tr></thead><tbody>`)
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("name %d", i)
		if i == 7 {
			name = `<a href="/seven">seven</a>`
		}
		fmt.Fprintf(&b, `<tr><td><p>c%d</p></td><td>%s</td><td>note %d</td></tr>`, i, name, i)
	}
	b.WriteString(`</tbody></table><p>After the table.</p></main>`)
	return b.String()
}

// The failure this catches: a table came out as "- cell: c1", "- cell:
// name 1" lines, one per cell, with no rows and no column names.
func TestTablesAreRowsUnderTheirColumns(t *testing.T) {
	s := newSite(t)
	s.page("/table", "Table", tablePage(60))
	tabs := openConv(t, sharedDriver(t), t.Name())
	navigate(t, tabs, s.URL+"/table")

	full := observe(t, tabs, drivers.ObserveOptions{FullPage: true})
	for _, want := range []string{"- columns: Code | Name | Notes\n", "- 3: c3 | name 3 | note 3\n", `- 7: c7 | link "seven" [ref=`,
		`(rows 31-60 not shown: observe within `, "After the table."} {
		if !strings.Contains(full.Tree, want) {
			t.Errorf("the full read lacks %q:\n%s", want, full.Tree)
		}
	}
	if strings.Contains(full.Tree, "- 31: ") || strings.Count(full.Tree, "- columns:") != 1 {
		t.Errorf("the full read of the page shows more than 30 rows, or the columns more than once:\n%s", full.Tree)
	}
	seven := target(t, full, "link", "seven")
	if seven.Ref == "" {
		t.Fatal("the link in a cell has no ref")
	}

	table := target(t, full, "table", "Codes")
	rows := observe(t, tabs, drivers.ObserveOptions{Within: table, Rows: "40-45"})
	got := regexp.MustCompile(`(?m)^\s*- (\d+): `).FindAllStringSubmatch(rows.Tree, -1)
	if len(got) != 6 || got[0][1] != "40" || got[5][1] != "45" || !strings.Contains(rows.Tree, "60 rows, rows 40-45 shown") {
		t.Fatalf("rows 40-45 read as:\n%s", rows.Tree)
	}
	all := readAll(t, tabs, drivers.ObserveOptions{Within: table})
	if !strings.Contains(all, "- 60: c60 | name 60 | note 60") {
		t.Fatalf("a read within the table does not reach its last row:\n%s", tail(all))
	}

	if out := mustDo(t, tabs, &drivers.Action{Kind: drivers.Click, Target: seven}); !strings.HasSuffix(out.URL, "/seven") {
		t.Fatalf("clicking the link in the cell: %+v", out)
	}
}

// The failure this catches: a note box with a heading of its own ended the
// section it sat in, so a read of "one section" stopped at the note and
// missed the rest; find named "Note" as a match's section.
func TestSectionsKeepTheirNotes(t *testing.T) {
	s := newSite(t)
	s.page("/guide", "Guide", `<header><h1>Site</h1></header><main>
		<h1>Guide</h1>
		<h2>Install</h2><p>Download the archive.</p>
		<div class="admonition note"><h3>Note</h3><p>Keep the archive.</p></div>
		<aside><h2>Sidebar</h2><p>Also see the FAQ.</p></aside>
		<p>Then run the installer with the default port 8080.</p>
		<h3>On Linux</h3><p>Use the package.</p>
		<h2>Configure</h2><p>Edit the file.</p></main>
		<footer><h2>Contact</h2><p>Write to us.</p></footer>`)
	tabs := openConv(t, sharedDriver(t), t.Name())
	navigate(t, tabs, s.URL+"/guide")
	obs := observe(t, tabs, drivers.ObserveOptions{})
	section := readAll(t, tabs, drivers.ObserveOptions{Within: target(t, obs, "heading", "Install")})
	for _, want := range []string{"Keep the archive.", "Also see the FAQ.", "default port 8080", "Use the package."} {
		if !strings.Contains(section, want) {
			t.Errorf("the Install section lacks %q:\n%s", want, section)
		}
	}
	if strings.Contains(section, "Edit the file.") || strings.Contains(section, "Write to us.") {
		t.Errorf("the Install section runs on past its end:\n%s", section)
	}
	last := readAll(t, tabs, drivers.ObserveOptions{Within: target(t, obs, "heading", "Configure")})
	if !strings.Contains(last, "Edit the file.") || strings.Contains(last, "Write to us.") {
		t.Errorf("the last section of the main content runs into the footer:\n%s", last)
	}
	found := observe(t, tabs, drivers.ObserveOptions{Find: &drivers.Query{Text: "default port"}})
	if !strings.Contains(found.Tree, `in: "Guide" › "Install" [ref=`) || strings.Contains(found.Tree, `"Note"`) || strings.Contains(found.Tree, `"Sidebar"`) {
		t.Errorf("find does not name the section from the main content's headings:\n%s", found.Tree)
	}
}

// The failure this catches: a definition list came out as unrelated lines,
// and a code block as one line with its line breaks gone.
func TestTermsAndCodeKeepTheirShape(t *testing.T) {
	s := newSite(t)
	s.page("/api", "API", `<main><dl><dt>open(path)</dt><dd><p>Opens a file.</p><p>Raises on error.</p></dd>
		<dt>close()</dt><dd>Closes it.</dd></dl>
		<pre><code>    if ok {
        run()
    }</code></pre></main>`)
	tabs := openConv(t, sharedDriver(t), t.Name())
	navigate(t, tabs, s.URL+"/api")
	full := observe(t, tabs, drivers.ObserveOptions{FullPage: true})
	// Refs aside, the read is the page's own shape: each term with its
	// definition under it, and the code's lines as they are, unindented.
	got := regexp.MustCompile(`\[ref=e\d+\]`).ReplaceAllString(full.Tree, "[ref]")
	want := "- main [ref]:\n" +
		"  - term [ref]: open(path)\n" +
		"    - paragraph [ref]: Opens a file.\n" +
		"    - paragraph [ref]: Raises on error.\n" +
		"  - term [ref]: close()\n" +
		"    - definition [ref]: Closes it.\n" +
		"  - code [ref]:\n" +
		"    if ok {\n" +
		"        run()\n" +
		"    }"
	if got != want {
		t.Errorf("the read is\n%s\nwant\n%s", got, want)
	}
}

// The failure this catches: with the budget spent, controls on screen were
// dropped ("N more in view here") while long paragraphs were shown whole.
func TestViewCutsTextBeforeControls(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<nav style="position:fixed;left:0;top:0;width:300px;height:100%;overflow:auto">`)
	for i := range 60 {
		fmt.Fprintf(&b, `<a href="/l%d" style="display:block;font-size:9px">Link number %d</a>`, i, i)
	}
	b.WriteString(`</nav><main style="margin-left:320px">`)
	for i := range 12 {
		fmt.Fprintf(&b, `<p style="font-size:9px">Paragraph %d %s</p>`, i, strings.Repeat("with many words that run on ", 12))
	}
	b.WriteString(`</main>`)
	s := newSite(t)
	s.page("/busy", "Busy", b.String())
	tabs := openConv(t, sharedDriver(t), t.Name())
	navigate(t, tabs, s.URL+"/busy")
	obs := observe(t, tabs, drivers.ObserveOptions{})
	for i := range 60 {
		if !strings.Contains(obs.Tree, fmt.Sprintf(`link "Link number %d" [ref=`, i)) {
			t.Fatalf("link %d, on screen, is missing:\n%s", i, obs.Tree)
		}
	}
	if !strings.Contains(obs.Tree, "paragraph: Paragraph 0 with many words") || !strings.Contains(obs.Tree, "…") || strings.Contains(obs.Tree, "more in view") {
		t.Fatalf("the paragraphs are not cut to their first words:\n%s", obs.Tree)
	}
}

// The failure this catches: find matched only roles and names, so an
// answer in the body of a long page, or in a table, took a read of the
// whole page.
func TestFindAnswersWithTheSentenceOrRow(t *testing.T) {
	s := newSite(t)
	var b strings.Builder
	b.WriteString(`<main><h1>Manual</h1><h2>Limits</h2>`)
	for i := range 40 {
		fmt.Fprintf(&b, `<p>Filler paragraph %d about nothing in particular.</p>`, i)
	}
	b.WriteString(`<p>Some numbers are large. The default limit is 4300 digits, as the build sets it. Other limits apply elsewhere.</p>`)
	b.WriteString(`<h2>Codes</h2><table><thead><tr><th>Code</th><th>Alias</th></tr></thead><tbody>`)
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&b, `<tr><td>k%d</td><td>alias of k%d, the limit</td></tr>`, i, i)
	}
	b.WriteString(`</tbody></table></main>`)
	s.page("/manual", "Manual", b.String())
	tabs := openConv(t, sharedDriver(t), t.Name())
	navigate(t, tabs, s.URL+"/manual")

	for name, c := range map[string]struct {
		text  string
		first *regexp.Regexp
	}{
		"a sentence": {"default limit", regexp.MustCompile(`^- paragraph \[ref=e\d+\] \(below\) in: "Manual" › "Limits" \[ref=e\d+\]: …The default limit is 4300 digits, as the build sets it\.…$`)},
		"a row":      {"k17", regexp.MustCompile(`^- row 17 of table \[ref=e\d+\] \(below\) in: "Manual" › "Codes" \[ref=e\d+\]: Code: k17 \| Alias: alias of k17, the limit$`)},
	} {
		obs := observe(t, tabs, drivers.ObserveOptions{Find: &drivers.Query{Text: c.text}})
		lines := strings.Split(obs.Tree, "\n")
		if len(lines) < 2 || !c.first.MatchString(lines[1]) {
			t.Errorf("%s: find %q answered:\n%s", name, c.text, obs.Tree)
		}
	}
	// Many matches: the best few, and how many there are.
	obs := observe(t, tabs, drivers.ObserveOptions{Find: &drivers.Query{Text: "limit"}})
	lines := strings.Split(obs.Tree, "\n")
	if lines[0] != "find: 32 matches, the best 5 shown" || len(lines) != 6 || !strings.Contains(lines[1], `- heading "Limits"`) {
		t.Errorf("find limit answered:\n%s", obs.Tree)
	}
}
