package messages

import (
	"fmt"
	"net/http"
	"slices"
)

// CodeInfo is what the contract says about one code.
type CodeInfo struct {
	// HTTP is the status of an owner API answer or an edge refusal with this
	// code (400 unless the table says otherwise). A tool's own refusal is
	// answered 200, since the agent reads the code, except unauthorized.
	HTTP int
	// BeforeInput: the refusal is decided before anything reached a page,
	// so the agent's latest observation still describes it.
	BeforeInput bool
	// Template is the sentence, a fmt format, where more than one place says it.
	Template string
}

const (
	badRequest = http.StatusBadRequest
	notFound   = http.StatusNotFound
	conflict   = http.StatusConflict
	failed     = http.StatusInternalServerError
)

// codes is the one table of codes. Every Code constant has a row; a test
// fails otherwise.
var codes = map[Code]CodeInfo{
	CodeBadInput:          {HTTP: badRequest, BeforeInput: true},
	CodeBadRequest:        {HTTP: badRequest},
	CodeUnauthorized:      {HTTP: http.StatusUnauthorized},
	CodeNotGranted:        {HTTP: badRequest},
	CodeNotAllowed:        {HTTP: badRequest, BeforeInput: true, Template: "This conversation belongs to another agent; use your own conversation id."},
	CodeStopped:           {HTTP: badRequest},
	CodeNoTask:            {HTTP: badRequest},
	CodeTaskPending:       {HTTP: badRequest},
	CodeTaskRefused:       {HTTP: badRequest},
	CodeTaskActive:        {HTTP: conflict},
	CodeMoved:             {HTTP: http.StatusGone, BeforeInput: true, Template: "Conversation %[1]s moved to %[2]s; call with conversation %[2]s from now on."},
	CodeInUse:             {HTTP: conflict, Template: "Conversation %s already has a task or a session; move to a new conversation id."},
	CodeBudgetShort:       {HTTP: badRequest},
	CodeBudgetSpent:       {HTTP: badRequest},
	CodeExpired:           {HTTP: badRequest},
	CodeBusy:              {HTTP: badRequest},
	CodePaused:            {HTTP: badRequest},
	CodeTakenOver:         {HTTP: badRequest},
	CodeReleased:          {HTTP: badRequest},
	CodeRestarted:         {HTTP: badRequest},
	CodeStaleObservation:  {HTTP: badRequest},
	CodeStaleRef:          {HTTP: badRequest},
	CodeNoSession:         {HTTP: notFound, Template: "Conversation %s has no running session; `buddi sessions` lists them."},
	CodeNotPaused:         {HTTP: badRequest},
	CodeUnknownAgent:      {HTTP: notFound},
	CodeAgentExists:       {HTTP: conflict},
	CodeNoPendingTask:     {HTTP: notFound},
	CodeNoPendingApproval: {HTTP: notFound},
	CodeTooManySessions:   {HTTP: conflict},
	CodeTooManyRequests:   {HTTP: badRequest},
	CodeWrongCode:         {HTTP: badRequest},
	CodeNoCode:            {HTTP: notFound},
	CodeBrowserOffline:    {HTTP: conflict},
	CodeExtRefused:        {HTTP: http.StatusForbidden},
	CodeBadMessage:        {HTTP: badRequest},
	CodeClusterDown:       {HTTP: http.StatusServiceUnavailable, Template: "This buddi takes no new work while it cannot reach the cluster's etcd (%s): whether the owner stopped browser access is not known here; try again shortly, or call another member."},
	CodeMCPSessionsFull:   {HTTP: conflict},
	CodeMCPTooFast:        {HTTP: http.StatusTooManyRequests},
	CodeApprovalRequired:  {HTTP: badRequest},
	CodeNotApproved:       {HTTP: badRequest},
	CodeStoreFailed:       {HTTP: failed, Template: "%s could not be saved: %s"},
	CodeInternal:          {HTTP: failed},
	CodeTimeout:           {HTTP: http.StatusGatewayTimeout},
	CodeNotFound:          {HTTP: notFound},
	CodeMethodNotAllowed:  {HTTP: http.StatusMethodNotAllowed},
	CodeUnknownTool:       {HTTP: notFound},
	CodeHostRefused:       {HTTP: http.StatusForbidden},
	CodeTailnetRefused:    {HTTP: http.StatusForbidden},
	CodeOriginRefused:     {HTTP: http.StatusForbidden},
	CodeNoTelegram:        {HTTP: conflict},
	CodeNotPaired:         {HTTP: conflict},
	CodeTooManyAttempts:   {HTTP: http.StatusTooManyRequests},
	CodeTooLarge:          {HTTP: failed, Template: "The answer came to %d MB, more than buddi sends (%d MB); ask for less (a region, a smaller screenshot)."},
	CodeSignInExpired:     {HTTP: http.StatusUnauthorized},
	CodeBadCSRF:           {HTTP: http.StatusForbidden},
	CodeSessionsOpen:      {HTTP: conflict, Template: "The browser settings change only with no session open, so that no agent's work switches under it; release the %d open session%s first (Close & release on the Host browser page, or `buddi release CONV`)."},
	CodeNotAvailable:      {HTTP: badRequest},
	CodeLocked:            {HTTP: conflict, Template: "%s is set by %s in buddi's environment; change it there and restart buddi."},
	CodeBusySettings:      {HTTP: conflict, Template: "buddi is applying new browser settings; try again in a moment."},
	CodeHandBusy:          {HTTP: conflict, Template: "Another tab is driving this page; press Drive from here to take the hand to this one."},
	CodeNoHand:            {HTTP: conflict},
	CodeHandEnded:         {HTTP: conflict},
	CodeHandMoved:         {HTTP: conflict},

	CodeNoBrowser:        {HTTP: failed},
	CodeNotAnswering:     {HTTP: badRequest},
	CodeTargetMiss:       {HTTP: badRequest},
	CodeTabGone:          {HTTP: badRequest},
	CodeTooManyTabs:      {HTTP: badRequest, BeforeInput: true},
	CodePartial:          {HTTP: badRequest},
	CodeNavFailed:        {HTTP: badRequest},
	CodeInterrupted:      {HTTP: badRequest},
	CodeBadURL:           {HTTP: badRequest, BeforeInput: true},
	CodeScheme:           {HTTP: badRequest, BeforeInput: true},
	CodeHostNotListed:    {HTTP: badRequest, BeforeInput: true},
	CodeNeverAutomate:    {HTTP: badRequest, BeforeInput: true},
	CodePrivate:          {HTTP: badRequest, BeforeInput: true},
	CodePort:             {HTTP: badRequest, BeforeInput: true},
	CodeAirGap:           {HTTP: badRequest, BeforeInput: true},
	CodeUnapproved:       {HTTP: badRequest, BeforeInput: true},
	CodeCredential:       {HTTP: badRequest, BeforeInput: true},
	CodeSecretValue:      {HTTP: badRequest, BeforeInput: true},
	CodeSecretInURL:      {HTTP: badRequest, BeforeInput: true},
	CodeUnknownSecret:    {HTTP: notFound, BeforeInput: true},
	CodeSecretOrigin:     {HTTP: badRequest, BeforeInput: true, Template: "The field %s is on %s, not an origin this secret is for, so nothing was typed; navigate to a page of %s, observe, and fill again."},
	CodeBuddiAddress:     {HTTP: badRequest, BeforeInput: true},
	CodeAmbiguous:        {HTTP: badRequest, BeforeInput: true},
	CodeNoApps:           {HTTP: badRequest, BeforeInput: true, Template: "There are no apps in the agents' own browser: open works only when the owner chose Use my apps; navigate to a web address instead."},
	CodeAppNotFound:      {HTTP: badRequest, BeforeInput: true},
	CodeAppAmbiguous:     {HTTP: badRequest, BeforeInput: true},
	CodeUnsupported:      {HTTP: conflict},
	CodeBrowserStarting:  {HTTP: http.StatusServiceUnavailable, BeforeInput: true},
	CodeBrowserRestarted: {HTTP: badRequest},
	CodePageUnresponsive: {HTTP: badRequest},

	CodeUnreachable: {HTTP: http.StatusServiceUnavailable, Template: "buddi is not running at %s; start it with `buddi serve` (or `make run`)."},
	CodeCancelled:   {HTTP: badRequest},
	CodeBadAnswer:   {HTTP: http.StatusBadGateway},
}

// Info is the table's row for c; an unknown code reads as a bad request.
func (c Code) Info() CodeInfo {
	if i, ok := codes[c]; ok {
		return i
	}
	return CodeInfo{HTTP: badRequest}
}

// Known reports whether c is in the table.
func (c Code) Known() bool {
	_, ok := codes[c]
	return ok
}

// HTTPStatus is the status an owner answer or an edge refusal with c gets.
func (c Code) HTTPStatus() int { return c.Info().HTTP }

// BeforeInput reports whether a refusal with c was decided before anything
// reached a page.
func (c Code) BeforeInput() bool { return c.Info().BeforeInput }

// Err is an *Error with c and its shared sentence, filled with args.
func (c Code) Err(args ...any) *Error {
	t := c.Info().Template
	if t == "" {
		return &Error{Code: c, Message: fmt.Sprint(args...)}
	}
	return &Error{Code: c, Message: fmt.Sprintf(t, args...)}
}

// Codes lists every code of the table, sorted.
func Codes() []Code {
	out := make([]Code, 0, len(codes))
	for c := range codes {
		out = append(out, c)
	}
	slices.Sort(out)
	return out
}
