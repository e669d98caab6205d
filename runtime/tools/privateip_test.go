package tools

import (
	"net"
	"testing"
)

func TestPrivateIP(t *testing.T) {
	for _, tc := range []struct {
		ip      string
		private bool
	}{
		{"127.0.0.1", true}, {"10.1.2.3", true}, {"172.16.0.1", true}, {"192.168.1.1", true},
		{"169.254.169.254", true}, {"100.100.100.200", true}, {"0.0.0.0", true}, {"255.255.255.255", true},
		{"::1", true}, {"fe80::1", true}, {"fd00::1", true}, {"::ffff:10.0.0.1", true},
		{"64:ff9b::a9fe:a9fe", true}, {"2002:c0a8:0101::1", true},
		{"8.8.8.8", false}, {"1.1.1.1", false}, {"2606:4700:4700::1111", false},
		{"64:ff9b::808:808", false}, {"2002:0808:0808::1", false}, {"100.128.0.1", false},
	} {
		if got := privateIP(net.ParseIP(tc.ip)); got != tc.private {
			t.Errorf("privateIP(%s) = %v, want %v", tc.ip, got, tc.private)
		}
	}
}
