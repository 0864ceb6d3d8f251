package macos

// axRoles maps Accessibility roles onto the protocol's role names.
var axRoles = map[string]string{
	"AXWindow": "window", "AXSheet": "dialog", "AXDrawer": "group", "AXButton": "button",
	"AXMenuButton": "button", "AXCheckBox": "checkbox", "AXRadioButton": "radio",
	"AXTextField": "textbox", "AXTextArea": "textbox", "AXComboBox": "combobox",
	"AXPopUpButton": "combobox", "AXList": "list", "AXOutline": "tree", "AXRow": "row",
	"AXCell": "cell", "AXTable": "table", "AXColumn": "group", "AXLink": "link",
	"AXMenu": "menu", "AXMenuBar": "menubar", "AXMenuBarItem": "menuitem", "AXMenuItem": "menuitem",
	"AXTabGroup": "tablist", "AXSlider": "slider", "AXIncrementor": "spinbutton",
	"AXProgressIndicator": "progressbar", "AXBusyIndicator": "progressbar",
	"AXLevelIndicator": "progressbar", "AXScrollBar": "scrollbar", "AXToolbar": "toolbar",
	"AXGroup": "group", "AXSplitGroup": "group", "AXScrollArea": "group", "AXLayoutArea": "group",
	"AXRadioGroup": "group", "AXHeading": "heading", "AXStaticText": "text", "AXImage": "img",
	"AXWebArea": "document", "AXSplitter": "separator", "AXValueIndicator": "slider",
	"AXDisclosureTriangle": "button", "AXColorWell": "button", "AXHelpTag": "tooltip",
	"AXDateField": "textbox", "AXBrowser": "tree",
}

// axSubroles refine a role.
var axSubroles = map[string]string{
	"AXSecureTextField": "textbox", "AXSearchField": "textbox", "AXDialog": "dialog",
	"AXSystemDialog": "dialog", "AXFloatingWindow": "window", "AXStandardWindow": "window",
	"AXTabButton": "tab", "AXSwitch": "switch", "AXToggle": "button", "AXOutlineRow": "treeitem",
	"AXTableRow": "row", "AXContentList": "list", "AXDefinitionList": "list",
	"AXSortButton": "button", "AXApplicationAlert": "alert", "AXApplicationStatus": "status",
	"AXDocumentArticle": "document", "AXLandmarkNavigation": "group",
}

// roleOf names an element's role; what it cannot place is generic.
func roleOf(role, subrole string) string {
	if r, ok := axSubroles[subrole]; ok {
		return r
	}
	if r, ok := axRoles[role]; ok {
		return r
	}
	return "generic"
}

// editable reports whether the element takes typed text.
func editable(role, subrole string) bool {
	switch role {
	case "AXTextField", "AXTextArea", "AXComboBox", "AXDateField":
		return true
	}
	return subrole == "AXSearchField"
}

// secure reports whether the element is a password field.
func secure(_, subrole string) bool { return subrole == "AXSecureTextField" }
