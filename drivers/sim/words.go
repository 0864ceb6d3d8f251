package sim

// Words the site generator draws names from.
var (
	adjectives = []string{"Red", "Quiet", "Small", "Golden", "Folding", "Classic", "Sturdy", "Bright", "Compact", "Vintage", "Oak", "Steel"}
	nouns      = []string{"Lamp", "Kettle", "Chair", "Desk", "Mug", "Clock", "Radio", "Kite", "Tent", "Bicycle", "Stool", "Vase", "Rug", "Fan", "Drill", "Boots"}
	topics     = []string{"guide", "review", "care tips", "history", "comparison", "questions", "deals", "manual"}
	countries  = []string{"France", "Germany", "Italy", "Japan", "Kenya", "Brazil", "Canada", "Norway"}
	blurbs     = []string{
		"Prices, reviews and care tips for everyday things.",
		"Compare the models below before you order.",
		"Stock changes daily; prices include tax.",
		"Our staff picked these for the season.",
	}
	consoleErrors = []string{
		"Uncaught TypeError: Cannot read properties of undefined (reading 'price')",
		"Failed to load resource: the server responded with a status of 404 ()",
		"Uncaught ReferenceError: analytics is not defined",
	}
)
