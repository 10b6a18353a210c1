package tool

import (
	"encoding/json"
	"testing"
)

// TestDecodeEscapes: the escapes a model writes out are decoded as Claude Code
// 2.1.328 decodes them (test/parity: TestParitySweep's sw_esc_* cases).
func TestDecodeEscapes(t *testing.T) {
	cases := map[string]string{
		`{"content":"caf\\u00e9"}`:                                 `{"content":"café"}`,
		`{"content":"\\u0041B","n":2.50,"b":true,"z":null}`:        `{"content":"AB","n":2.50,"b":true,"z":null}`,
		`{"a":"\\ud83d\\ude00 x","b":["\\u00e9",{"c":"\\u00e8"}]}`: `{"a":"😀 x","b":["é",{"c":"è"}]}`,
		`{"content":"x\\ud83dy"}`:                                  `{"content":"x\\ud83dy"}`,          // a lone surrogate
		`{"content":"\\\\u00e9 and \\u00e9"}`:                      `{"content":"\\\\u00e9 and é"}`,    // an escaped backslash
		`{"content":"a\\u0007b \\u00e9"}`:                          `{"content":"a\\u0007b é"}`,        // a control character
		`{"file_path":"C:\\users\\u00e9"}`:                         `{"file_path":"C:\\users\\u00e9"}`, // a Windows path
		`{"command":"echo \\u003cb\\u003e \\u0026"}`:               `{"command":"echo <b> &"}`,
		`{"k\\u00e9y":"v"}`:                                        `{"k\\u00e9y":"v"}`, // keys are not values
	}
	for in, want := range cases {
		got, changed := DecodeEscapes(json.RawMessage(in))
		if string(got) != want || changed != (in != want) {
			t.Errorf("%s:\n got  %s (changed %v)\n want %s", in, got, changed, want)
		}
	}
	for _, in := range []string{`{"a":"plain"}`, `not json \\u00e9`, `{"a":"\u00e9"}`} {
		if got, changed := DecodeEscapes(json.RawMessage(in)); changed || string(got) != in {
			t.Errorf("%s: changed to %s", in, got)
		}
	}
}

// TestStripCdWorkdir: Claude Code 2.1.328 drops a leading `cd <working directory>
// && `, written exactly so (test/parity: TestParityHookInputs, h_bash_cd).
func TestStripCdWorkdir(t *testing.T) {
	cases := map[string]string{
		`{"command":"cd /w && echo hi","description":"d"}`: `{"command":"echo hi","description":"d"}`,
		`{"command":"cd /w/ && echo hi"}`:                  `{"command":"cd /w/ && echo hi"}`,
		`{"command":"cd \"/w\" && echo hi"}`:               `{"command":"cd \"/w\" && echo hi"}`,
		`{"command":"cd /w; echo hi"}`:                     `{"command":"cd /w; echo hi"}`,
		`{"command":"cd /w/sub && echo hi"}`:               `{"command":"cd /w/sub && echo hi"}`,
		`{"command":"echo hi && cd /w && ls"}`:             `{"command":"echo hi && cd /w && ls"}`,
	}
	for in, want := range cases {
		if got, _ := StripCdWorkdir(json.RawMessage(in), "/w"); string(got) != want {
			t.Errorf("%s: got %s, want %s", in, got, want)
		}
	}
}
