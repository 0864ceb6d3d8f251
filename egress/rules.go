package egress

import (
	"maps"
	"slices"
)

// FieldRules are the credential rules of CredentialField and LooksLikeSecret
// in data form, for code that classifies fields where Go does not run: the
// driver's in-page walker masks the values of what they classify. The Go
// functions are the reference; the driver's tests hold the page to them.
type FieldRules struct {
	Autocomplete []string    `json:"autocomplete"` // autocomplete tokens of credential fields
	Words        []string    `json:"words"`        // whole words of a name or id (or two words joined)
	Runs         []string    `json:"runs"`         // letter runs anywhere in a name or id, separators removed
	CodeWords    []string    `json:"codeWords"`    // with inputmode=numeric, words of a one-time code box
	NotCodeWords []string    `json:"notCodeWords"` // ...unless one of these is there too
	Tokens       []TokenRule `json:"tokens"`       // vendor key formats
}

// TokenRule is a vendor key format: Prefix, then Min (and, when Max > 0,
// exactly Max) characters from Set.
type TokenRule struct {
	Prefix string `json:"prefix"`
	Set    string `json:"set"`
	Min    int    `json:"min"`
	Max    int    `json:"max"`
}

// CredentialRules returns the rules as data.
func CredentialRules() FieldRules {
	r := FieldRules{
		Autocomplete: slices.Sorted(maps.Keys(credentialAutocomplete)),
		Words:        slices.Sorted(maps.Keys(credentialWords)),
		CodeWords:    slices.Clone(codeWords),
		NotCodeWords: slices.Clone(notCodeWords),
	}
	for _, c := range credentialRuns {
		r.Runs = append(r.Runs, c.run)
	}
	for _, t := range tokenRules {
		r.Tokens = append(r.Tokens, TokenRule{Prefix: t.prefix, Set: t.set, Min: t.min, Max: t.max})
	}
	return r
}
