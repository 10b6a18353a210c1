package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// No flag's help names a value from a backquoted word: pflag's UnquoteUsage takes
// the first backquoted word of a usage string as the value's name, so a usage
// quoting `starter approve` printed "--ask-timeout starter approve" in run --help.
func TestFlagHelpNamesNoValueFromBackquotes(t *testing.T) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if strings.Contains(f.Usage, "`") {
				name, _ := pflag.UnquoteUsage(f)
				t.Errorf("%s --%s: its usage has a backquote, so --help shows it as \"--%s %s\": %q", c.CommandPath(), f.Name, f.Name, name, f.Usage)
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(rootCmd())
}
