package mcp

// Render exposes render to the black-box fuzz test.
var Render = render
