package record

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// ownHosts are the hosts of the providers' own APIs, the only ones an API key goes to
// unless the caller says otherwise.
var ownHosts = map[string]string{
	Anthropic: "api.anthropic.com",
	OpenAI:    "api.openai.com",
}

// OwnHost returns the host of a provider's own API.
func OwnHost(provider string) string { return ownHosts[provider] }

// ErrPlainHTTPKey is returned when a key would go over plain HTTP to a host that is not
// this machine.
var ErrPlainHTTPKey = errors.New("an API key is never sent over plain http to another machine")

// SendsKey reports whether an API key goes to baseURL: always to the provider's own API
// (an empty baseURL, or one on its own host), to any other host only when toBaseURL is
// set (-send-key-to-base-url). A key that would go over plain http to a host other than
// a loopback address is refused with an error wrapping ErrPlainHTTPKey, whatever the flag.
func SendsKey(provider, baseURL string, toBaseURL bool) (bool, error) {
	if baseURL == "" {
		return true, nil
	}
	u, err := url.Parse(baseURL)
	if err != nil {
		return false, fmt.Errorf("base URL: %w", err)
	}
	if u.Hostname() != OwnHost(provider) && !toBaseURL {
		return false, nil
	}
	if u.Scheme != "https" && !Loopback(u.Hostname()) {
		return false, fmt.Errorf("refuse to send the API key to %s: %w; use https, or a server on a loopback address", u.Host, ErrPlainHTTPKey)
	}
	return true, nil
}

// Loopback reports whether host names this machine: localhost or an address of
// 127.0.0.0/8 or ::1. Nothing is resolved: a name that may point elsewhere is not loopback.
func Loopback(host string) bool {
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// EndpointText returns a base URL as it may be shown or stored: without a password, and
// with each query value replaced, since a gateway may take its key there.
func EndpointText(baseURL string) string {
	u, err := url.Parse(baseURL)
	if err != nil {
		return "(a base URL that does not parse)"
	}
	return urlText(u)
}

func urlText(u *url.URL) string {
	c := *u
	c.Fragment, c.RawFragment = "", ""
	if c.RawQuery != "" {
		q := c.Query()
		names := make([]string, 0, len(q))
		for name := range q {
			names = append(names, name)
		}
		slices.Sort(names)
		for i, name := range names {
			names[i] = url.QueryEscape(name) + "=REDACTED"
		}
		c.RawQuery = strings.Join(names, "&")
	}
	return c.Redacted()
}

// QuerySecrets returns the values of a base URL's query string, which are redacted
// everywhere as if they were keys.
func QuerySecrets(baseURL string) []string {
	u, err := url.Parse(baseURL)
	if err != nil {
		return nil
	}
	var out []string
	for _, vs := range u.Query() {
		out = append(out, vs...)
	}
	if p, ok := u.User.Password(); ok {
		out = append(out, p)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// sameOrigin refuses a redirect to another scheme, host or port: x-api-key (unlike
// Authorization) is forwarded by net/http to wherever a server redirects.
func sameOrigin(req *http.Request, via []*http.Request) error {
	first := via[0].URL
	if req.URL.Scheme != first.Scheme || req.URL.Host != first.Host {
		return fmt.Errorf("refuse a redirect from %s to %s: the API key goes only to the base URL's host", first.Host, urlText(req.URL))
	}
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	return nil
}
