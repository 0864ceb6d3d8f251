package messages

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"
)

// fieldSet is a set of browser.act's fields, one bit per entry of
// ownFields.
type fieldSet uint32

// ownFields names the fields some actions read and others do not, as the
// agent names them, in the order of presentFields' bits. The fields every
// action may carry (action, observation, timeoutMs, thenObserve) are not
// among them.
var ownFields = [...]string{"target", "url", "urlSource", "value", "values", "secret", "key", "deltaY", "tab", "tabId",
	"wait", "fullPage", "within", "after", "rows", "text", "role", "name", "exact", "screenshot", "fullRes", "maxChars",
	"selector", "steps", "appId", "app"}

// presentFields is the set of ownFields that in sets, with no call per field: it
// runs for every act.
func presentFields(in *ActInput) fieldSet {
	var s fieldSet
	for i, set := range [len(ownFields)]bool{in.Target != nil, in.URL != "", in.URLSource != "", in.Value != "",
		in.Values != nil, in.Secret != "", in.Key != "", in.DeltaY != 0, in.Tab != "", in.TabID != "", in.Wait != nil,
		in.FullPage, in.Within != "", in.After != "", in.Rows != "", in.Text != "", in.Role != "", in.Name != "", in.Exact,
		in.Screenshot, in.FullRes, in.MaxChars != 0, in.Selector != "", in.Steps != nil, in.AppID != "", in.App != ""} {
		if set {
			s |= 1 << i
		}
	}
	return s
}

// fieldsNamed is the set of the space-separated field names of an
// ActionSpec's Takes. A name that is not one of ownFields is a mistake in
// the table, found when the package loads.
func fieldsNamed(names string) fieldSet {
	var set fieldSet
	for _, n := range strings.Fields(names) {
		i := slices.Index(ownFields[:], n)
		if i < 0 {
			panic(fmt.Sprintf("messages: the action table names %q, which is not a field of browser.act", n))
		}
		set |= 1 << i
	}
	return set
}

// checkTakes refuses a field the action does not read. Left unread, it
// would have the action do something other than the agent meant and still
// answer done: a fill given its text as "text" (find's field) typed
// nothing and emptied the field.
func checkTakes(in *ActInput, spec *ActionSpec) *Error {
	stray := presentFields(in) &^ spec.takes
	if stray == 0 {
		return nil
	}
	name := ownFields[bits.TrailingZeros32(uint32(stray))]
	if spec.Takes == "" {
		return badInput("%s takes no %q; send it with \"action\" alone (and \"observation\" where it needs one)", spec.Name, name)
	}
	return badInput("%s takes no %q; its fields are %s", spec.Name, name, quotedFields(spec.Takes))
}

// quotedFields is a Takes as a sentence reads it: "target" and "value".
func quotedFields(takes string) string {
	names := strings.Fields(takes)
	for i, n := range names {
		names[i] = `"` + n + `"`
	}
	return Words(names, "and")
}
