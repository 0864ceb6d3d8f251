package playwright_test

import (
	"testing"

	"github.com/buddi-dev/buddi/drivers/drivertest"
)

func TestDriverContract(t *testing.T) {
	s := newSite(t)
	s.page("/links", "Links", `<h1>Links</h1><p><a href="/next">Next page</a></p>`)
	s.page("/next", "Next", `<h1>Next</h1><p>The page after.</p>`)
	s.page("/form", "Form", `<h1>Order</h1><form action="/done" method="get">
		<label>Name <input name="name"></label>
		<label>Colour <select name="colour"><option>Red</option><option>Green</option></select></label>
		<button type="submit">Send</button></form>`)
	s.page("/done", "Done", `<h1>Thanks</h1>`)
	s.mux.Handle("/inputs/", drivertest.InputPages())
	drivertest.Run(t, sharedDriver(t), drivertest.Site{
		Links: s.URL + "/links", Link: "Next page",
		Form: s.URL + "/form", Field: "Name", Choice: "Colour", Option: "Green", Button: "Send",
		Inputs: s.URL + "/inputs/", Popups: true,
	})
}
