package messages

// decodeActFast decodes the common shape of an act's input without
// reflection: one object of the act's text, number and true/false fields,
// and a target given by ref, role, name, by or frame. It answers false for
// anything else (escapes, nulls, lists, nested steps, a wait, a pixel, a
// field named twice or in another case, trailing data, bad JSON), which the
// strict decoder then reads and, when it is wrong, explains. What it
// accepts decodes to what the strict decoder gives.
func decodeActFast(raw []byte, in *ActInput) bool {
	p := jsonScan{b: raw}
	if !p.object(func(key []byte) bool { return readActField(&p, key, in) }) {
		return false
	}
	p.space()
	return p.i == len(p.b)
}

// actField is one field of the fast decoder: its bit in jsonScan.seen and
// where its value goes (one of s, n, f).
type actField struct {
	bit uint
	s   func(*ActInput) *string
	n   func(*ActInput) *int
	f   func(*ActInput) *bool
}

var actFields = map[string]actField{
	"action":      {bit: 0, s: func(in *ActInput) *string { return &in.Action }},
	"observation": {bit: 1, s: func(in *ActInput) *string { return &in.Observation }},
	"url":         {bit: 2, s: func(in *ActInput) *string { return &in.URL }},
	"urlSource":   {bit: 3, s: func(in *ActInput) *string { return &in.URLSource }},
	"value":       {bit: 4, s: func(in *ActInput) *string { return &in.Value }},
	"secret":      {bit: 5, s: func(in *ActInput) *string { return &in.Secret }},
	"key":         {bit: 6, s: func(in *ActInput) *string { return &in.Key }},
	"tab":         {bit: 7, s: func(in *ActInput) *string { return &in.Tab }},
	"tabId":       {bit: 8, s: func(in *ActInput) *string { return &in.TabID }},
	"within":      {bit: 9, s: func(in *ActInput) *string { return &in.Within }},
	"after":       {bit: 10, s: func(in *ActInput) *string { return &in.After }},
	"rows":        {bit: 11, s: func(in *ActInput) *string { return &in.Rows }},
	"text":        {bit: 12, s: func(in *ActInput) *string { return &in.Text }},
	"role":        {bit: 13, s: func(in *ActInput) *string { return &in.Role }},
	"name":        {bit: 14, s: func(in *ActInput) *string { return &in.Name }},
	"selector":    {bit: 15, s: func(in *ActInput) *string { return &in.Selector }},
	"appId":       {bit: 16, s: func(in *ActInput) *string { return &in.AppID }},
	"app":         {bit: 17, s: func(in *ActInput) *string { return &in.App }},
	"deltaY":      {bit: 18, n: func(in *ActInput) *int { return &in.DeltaY }},
	"timeoutMs":   {bit: 19, n: func(in *ActInput) *int { return &in.TimeoutMs }},
	"maxChars":    {bit: 20, n: func(in *ActInput) *int { return &in.MaxChars }},
	"fullPage":    {bit: 21, f: func(in *ActInput) *bool { return &in.FullPage }},
	"exact":       {bit: 22, f: func(in *ActInput) *bool { return &in.Exact }},
	"screenshot":  {bit: 23, f: func(in *ActInput) *bool { return &in.Screenshot }},
	"fullRes":     {bit: 24, f: func(in *ActInput) *bool { return &in.FullRes }},
	"thenObserve": {bit: 26, f: func(in *ActInput) *bool { return &in.ThenObserve }},
}

const targetBit = 25

func readActField(p *jsonScan, key []byte, in *ActInput) bool {
	if string(key) == "target" {
		if !p.once(targetBit) {
			return false
		}
		in.Target = &TargetRef{}
		return p.object(func(k []byte) bool { return readTargetField(p, k, in.Target) })
	}
	fd, ok := actFields[string(key)]
	if !ok || !p.once(fd.bit) {
		return false
	}
	switch {
	case fd.s != nil:
		*fd.s(in), ok = p.plain()
	case fd.n != nil:
		*fd.n(in), ok = p.num()
	default:
		ok = p.boolean(fd.f(in))
	}
	return ok
}

func readTargetField(p *jsonScan, key []byte, t *TargetRef) bool {
	var s *string
	var bit uint
	switch string(key) {
	case "ref":
		s, bit = &t.Ref, 40
	case "by":
		s, bit = &t.By, 41
	case "role":
		s, bit = &t.Role, 42
	case "name":
		s, bit = &t.Name, 43
	case "frame":
		if !p.once(44) {
			return false
		}
		var ok bool
		t.Frame, ok = p.num()
		return ok
	default:
		return false
	}
	if !p.once(bit) {
		return false
	}
	var ok bool
	*s, ok = p.plain()
	return ok
}
