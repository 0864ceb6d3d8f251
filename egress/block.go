package egress

import "strings"

// Block is FenceMaskedAfter written in place: the caller writes the text
// read from the page straight into the block, between the opening line
// Open wrote and the closing line Close writes, so that a reading without
// secrets, in valid UTF-8 and without the owner's secrets (a page's usual
// reading) is copied once, where FenceMaskedAfter copies it twice. Close
// gives what FenceMaskedAfter gives for the same text, byte for byte; a
// reading that needs masking is masked and fenced by it. A Block is not
// copied once opened.
type Block struct {
	b      strings.Builder
	head   string
	kind   string
	tag    string
	start  int           // where the text begins in b
	newTag func() string // the source of tags; fenceTag but in tests
}

// Open begins the block after head, with room for size bytes of text.
func (k *Block) Open(head, kind string, size int) {
	if k.newTag == nil {
		k.newTag = fenceTag
	}
	k.head, k.kind, k.tag = head, kind, k.newTag()
	k.b.Grow(len(head) + size + 128)
	k.b.WriteString(head)
	openLine(&k.b, kind, k.tag)
	k.start = k.b.Len()
}

// Text is where the page's text is written, after the opening line.
func (k *Block) Text() *strings.Builder { return &k.b }

// Len is how many bytes of text were written.
func (k *Block) Len() int { return k.b.Len() - k.start }

// Close ends the block and returns it with the values it masked, as
// FenceMaskedAfter(head, kind, text, owned) does.
func (k *Block) Close(owned []string) (string, []string) {
	text := k.b.String()[k.start:]
	if !k.plain(text, owned) {
		tags := k.tag
		return fenceMasked(k.head, k.kind, text, owned, func() string {
			if t := tags; t != "" {
				tags = ""
				return t
			}
			return k.newTag()
		})
	}
	if !strings.HasSuffix(text, "\n") {
		k.b.WriteByte('\n')
	}
	closeLine(&k.b, k.tag)
	return k.b.String(), nil
}

// plain says whether fenceMasked would leave text as it is and keep the
// tag Open chose: no private key, no token that looks like a secret, no
// bytes that are not UTF-8, none of owned and not the tag.
func (k *Block) plain(text string, owned []string) bool {
	if strings.Contains(text, "PRIVATE KEY") || strings.Contains(text, k.tag) {
		return false
	}
	if s := scanSecrets(text); len(s.spans) > 0 || s.invalid {
		return false
	}
	for _, v := range owned {
		if len(v) >= MinOwned && strings.Contains(text, v) {
			return false
		}
	}
	return true
}
