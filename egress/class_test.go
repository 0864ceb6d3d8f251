package egress_test

import (
	"bufio"
	"net/netip"
	"os"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/egress"
)

// loadAddresses reads testdata/addresses.txt: address, class, comment.
func loadAddresses(t testing.TB) map[string]string {
	f, err := os.Open("testdata/addresses.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		if _, dup := m[fields[0]]; dup {
			t.Fatalf("%s is listed twice", fields[0])
		}
		m[fields[0]] = fields[1]
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestClassify(t *testing.T) {
	cases := loadAddresses(t)
	if len(cases) < 40 {
		t.Fatalf("only %d address forms; want at least 40", len(cases))
	}
	for addr, want := range cases {
		t.Run(addr, func(t *testing.T) {
			a, err := netip.ParseAddr(addr)
			if err != nil {
				t.Fatal(err)
			}
			got := egress.Classify(a)
			if got.String() != want {
				t.Errorf("Classify(%s) = %s, want %s", addr, got, want)
			}
			if got.Allowed() != (want == "public") {
				t.Errorf("Classify(%s).Allowed() = %v", addr, got.Allowed())
			}
		})
	}
}

func TestClassifyInvalid(t *testing.T) {
	c := egress.Classify(netip.Addr{})
	if c != egress.ClassInvalid || c.Allowed() || c.String() != "invalid" {
		t.Errorf("zero Addr: got %v", c)
	}
	if s := egress.Class(200).String(); s != "invalid" {
		t.Errorf("out-of-range class String() = %q", s)
	}
}
