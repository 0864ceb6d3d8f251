package linux

// roles maps AT-SPI roles (AtspiRole numbers) onto the protocol's role
// names; a role missing here is "generic".
var roles = map[uint32]string{
	23: "window", 69: "window", 28: "window", 14: "window", // frame, window, internal frame, desktop frame
	16: "dialog", 19: "dialog", 9: "dialog", 22: "dialog", // dialog and the choosers
	2:  "alert",
	43: "button", 62: "button", 129: "button", // push, toggle, push-button menu
	7:  "checkbox",
	44: "radio",
	61: "textbox", 40: "textbox", 79: "textbox", 77: "textbox", 12: "textbox", // text, password text, entry, editbar, date editor
	11: "combobox", 76: "combobox",
	98: "listbox",
	31: "list",
	32: "listitem",
	88: "link",
	33: "menu", 41: "menu",
	34: "menubar",
	35: "menuitem", 8: "menuitem", 45: "menuitem", 59: "menuitem",
	37: "tab",
	38: "tablist",
	65: "tree", 66: "tree",
	91: "treeitem",
	55: "table", 92: "table",
	90: "row",
	56: "cell",
	10: "columnheader", 57: "columnheader",
	47: "rowheader", 58: "rowheader",
	51: "slider", 15: "slider",
	52: "spinbutton",
	42: "progressbar", 103: "progressbar",
	48: "scrollbar",
	63: "toolbar",
	39: "group", 99: "group", 85: "group", 87: "group", 110: "group", 20: "group", 49: "group",
	68: "group", 53: "group", 30: "group", 46: "group", 36: "group", 24: "group", 71: "group",
	72: "group", 109: "group", 105: "group",
	83: "heading",
	29: "text", 116: "text", 73: "text", 81: "text", 1: "text", 122: "text", 123: "text",
	27: "img", 26: "img", 3: "img", 100: "img",
	82: "document", 95: "document", 94: "document", 96: "document", 93: "document", 25: "document", 84: "document", 60: "document",
	50: "separator",
	54: "status", 102: "status",
	101: "alert",
	64:  "tooltip",
}

const rolePasswordText = 40

func roleName(role uint32) string {
	if r, ok := roles[role]; ok {
		return r
	}
	return "generic"
}
