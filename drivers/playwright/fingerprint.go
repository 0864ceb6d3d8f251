package playwright

import "github.com/buddi-dev/buddi/drivers/walker"

// elemInfo is what the engine reads of one element in the isolated world.
type elemInfo = walker.Info

// fieldOf is the element as CheckField sees it.
func fieldOf(e *elemInfo) Field { return walker.FieldOf(e) }
