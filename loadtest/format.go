package loadtest

import "fmt"

func fmtBytes(b float64) string {
	neg := ""
	if b < 0 {
		neg, b = "-", -b
	}
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%s%.2f GB", neg, b/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%s%.1f MB", neg, b/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%s%.1f KB", neg, b/(1<<10))
	}
	return fmt.Sprintf("%s%.0f B", neg, b)
}

func fmtCount(n int64) string { return fmt.Sprintf("%d", n) }
