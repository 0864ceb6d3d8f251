package mcp

import (
	"fmt"
	"strings"

	"github.com/buddi-dev/buddi/messages"
)

const instructions = `buddi lends you a real browser that its owner watches and can take over.
Call browser_status first. Acting needs a task the owner granted: ask with browser_task, then check browser_status until it is active.
With a task, call browser_act with action observe, then act on the refs it returns, naming that observation's id; observe again after the page changes.
Errors come back as "<code>: <sentence>"; the sentence says what to do next.`

const statusDoc = `Report whether buddi's browser is available to you and the state of your session: whether a task is active or pending, steps and time left, whether the owner paused or took over, and the current page. Read-only; call it first, and again when an action is refused.`

const taskDoc = `Ask the owner for a task: say in one or two sentences what you want to do in the browser, and optionally how many steps (at most 80) and minutes (at most 20) you need. The owner accepts or refuses; browser_act is refused until a task is active, so check browser_status for the answer.`

// actDoc is browser_act's description: the actions come from the action
// table, the codes from the contract.
func actDoc() string {
	var b strings.Builder
	b.WriteString("Observe and act in a real browser tab, within a task the owner granted (ask with browser_task).\n")
	fmt.Fprintf(&b, "Start with action \"observe\": it returns an observation id and refs such as e12 for the elements in view. "+
		"Actions that put input on the page (%s) must name the latest observation id in \"observation\" and the element in \"target.ref\"; "+
		"once the page has changed, observe again: an older or outdated observation is refused with %s, a ref that is no longer on the page with %s.\n",
		messages.Words(messages.ActionNames(messages.Mutators), "and"), messages.CodeStaleObservation, messages.CodeStaleRef)
	b.WriteString("The observation shows what is on screen and an outline of the rest with refs: observe with \"within\" a ref reads that part, " +
		"\"fullPage\" reads the whole page, and a read that does not fit ends with \"continues\", to send back as it is for the next part. " +
		"Action \"find\" (text, role, name; exact) searches the whole page and returns matches with refs.\n")
	b.WriteString("Actions: ")
	for i, a := range messages.Actions() {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(a.Name + ": " + a.Doc)
	}
	fmt.Fprintf(&b, ". A script holds %s steps only.\n", messages.Words(messages.ActionNames(messages.Scriptables), "or"))
	fmt.Fprintf(&b, "Some sites are never automated (%s). A link read from a page needs a site the owner approved (%s); "+
		"when the owner asks to be asked about every site, a navigation waits for the answer (%s, then navigate again) and a no is final (%s).",
		messages.CodeNeverAutomate, messages.CodeUnapproved, messages.CodeApprovalRequired, messages.CodeNotApproved)
	return b.String()
}
