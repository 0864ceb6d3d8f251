package playwright

import "github.com/buddi-dev/buddi/drivers/walker"

// elemInfo is what the engine reads of one element in the isolated world.
type elemInfo = walker.Info

// fieldOf is the element as CheckField sees it.
func fieldOf(e *elemInfo) Field {
	return Field{Tag: e.Tag, Type: e.Type, Autocomplete: e.Autocomplete,
		Name: e.NameAttr, ID: e.ID, InputMode: e.InputMode}
}
