// Package axe audits the page open in a browser tab with axe-core (the
// version pinned in web/.tools, installed there by npm ci): the rules of
// WCAG 2.0, 2.1 and 2.2, A and AA, and axe's best practice, over the whole
// document, open shadow roots included. The browser tests
// (engine/internal/browsertest/e2e, .../sites) fail on what it reports.
package axe

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/chromedp/chromedp"
)

// Violation is one rule a page breaks, at the nodes it names (a CSS path,
// ">>>" entering a shadow root, then axe's summary of what to fix).
type Violation struct {
	ID     string   `json:"id"`
	Impact string   `json:"impact"`
	Help   string   `json:"help"`
	Nodes  []string `json:"nodes"`
}

func (v Violation) String() string {
	return fmt.Sprintf("axe %s (%s): %s\n\t%s", v.ID, v.Impact, v.Help, strings.Join(v.Nodes, "\n\t"))
}

// Script reads axe-core's script from the web folder's pinned tools.
func Script(webDir string) (string, error) {
	b, err := os.ReadFile(filepath.Join(webDir, ".tools", "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		return "", fmt.Errorf("axe-core is missing (%w): install it with cd web/.tools && npm ci (make e2e does)", err)
	}
	return string(b), nil
}

// Serious runs axe-core over the page of ctx as it stands and returns its
// violations of impact serious or critical. script is Script's; it is
// injected over the protocol (the page's content security policy does
// not apply) unless the page has it already. The rules named in off do
// not run. within, when not "", is a CSS selector: only the elements it
// matches, and what is inside them, are audited.
func Serious(ctx context.Context, script string, off []string, within string) ([]Violation, error) {
	has, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`typeof axe === 'object'`))
	if err != nil {
		return nil, err
	}
	if !has {
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](script+"\n;true")); err != nil {
			return nil, fmt.Errorf("injecting axe-core: %w", err)
		}
	}
	sort.Strings(off)
	rules := "{"
	for _, id := range off {
		rules += fmt.Sprintf("%q: {enabled: false},", id)
	}
	rules += "}"
	scope := "document"
	if within != "" {
		scope = fmt.Sprintf("{include: [%q]}", within)
	}
	return chromedp.Run(ctx, chromedp.Evaluate[[]Violation](fmt.Sprintf(`axe.run(%s, {
		runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']},
		rules: %s, resultTypes: ['violations'],
	}).then((r) => r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => ({
		id: v.id, impact: v.impact, help: v.help,
		nodes: v.nodes.map((n) => n.target.join(' >>> ') + (n.failureSummary ? ': ' + n.failureSummary.replace(/\s+/g, ' ') : '')),
	})))`, scope, rules), chromedp.EvalAwaitPromise))
}
