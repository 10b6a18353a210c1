// Package uitest checks, in a real browser, what people see of toolpipe in the
// Temporal Web UI that the embedded server serves. Its test is skipped unless
// TOOLPIPE_BROWSER_TEST=1 and Debian's Chromium is installed (/usr/bin/chromium);
// it leaves a screenshot under test-artifacts/ at the repository's root.
package uitest
