package tools

import "testing"

func TestDomainToASCII(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Example.COM", "example.com"},
		{"ｅｖｉｌ．ｃｏｍ", "evil.com"},
		{"bücher.example", "xn--bcher-kva.example"},
		{"MÜNCHEN.de", "xn--mnchen-3ya.de"},
		{"例え.テスト", "xn--r8jz45g.xn--zckzah"},
		{"a｡b", "a.b"},
	} {
		if got := domainToASCII(c.in); got != c.want {
			t.Errorf("domainToASCII(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
