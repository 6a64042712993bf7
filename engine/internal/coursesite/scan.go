package coursesite

import (
	"bytes"
	"cmp"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Found is one timeline of a page: a <lease-timeline> element, or a fence
// the player turns into one, with the options that choose its run.
type Found struct {
	Fence   bool              // a fence (else an element)
	Lab     bool              // a lab's (<lease-lab>, a lease-lab fence): Run.Kind is KindLab
	Options map[string]string // the element's attributes (a fence's options)
	Src     string            // an element's src= (its text is that file's), else ""
	Unknown []string          // a fence directive's keys that are no option
	// Unreadable says why a fence's text cannot be read as a timeline
	// (Unreadable), or is "".
	Unreadable string
	// Line is the page's line where the fence's pre starts (1-based), or 0
	// when it is not known.
	Line int
	// Run is the run the player asks for; its Text is empty when Src
	// names the text.
	Run Run
}

// wrapperClass is a highlighter's wrapper class (fences.js WRAPPER).
var wrapperClass = regexp.MustCompile(`(^|\s)(highlight|highlight-\S+|codehilite|highlighter-rouge|language-\S+|expressive-code)(\s|$)`)

// Find returns the timelines of a page's HTML, in the page's order: each
// <lease-timeline> element and each fence (fences.js convertAll finds the
// same).
func Find(page []byte) ([]Found, error) {
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		return nil, err
	}
	docLang := ""
	if root := firstElement(doc, atom.Html); root != nil {
		docLang = attr(root, "lang")
	}
	lines := preLines(page)
	pres := map[*html.Node]int{}
	var out []Found
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		if n.DataAtom == atom.Pre {
			pres[n] = len(pres)
		}
		if n.Data == "lease-timeline" {
			out = append(out, element(n, docLang))
		} else if n.Data == LabMarker {
			out = append(out, labElement(n, docLang))
		} else if k, ok := fenceKindOf(n); ok {
			f := fence(n, docLang, k)
			if i := pres[preOf(n)]; i < len(lines) {
				f.Line = lines[i]
			}
			out = append(out, f)
		}
	}
	if len(pres) != len(lines) { // the parser made a pre no tag wrote: the lines are not known
		for i := range out {
			out[i].Line = 0
		}
	}
	return out, nil
}

// preLines is the line of each <pre> start tag of a page, in order.
func preLines(page []byte) []int {
	var out []int
	z := html.NewTokenizer(bytes.NewReader(page))
	line := 1
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return out
		}
		raw := z.Raw()
		if tt == html.StartTagToken || tt == html.SelfClosingTagToken {
			if name, _ := z.TagName(); string(name) == "pre" {
				out = append(out, line)
			}
		}
		line += bytes.Count(raw, []byte{'\n'})
	}
}

// element reads a <lease-timeline> as lease-timeline.js does.
func element(n *html.Node, docLang string) Found {
	f := Found{Options: map[string]string{}, Src: attr(n, "src")}
	for _, a := range n.Attr {
		if a.Namespace == "" {
			f.Options[a.Key] = a.Val
		}
	}
	f.Run = Run{Name: elementName(n), Lang: langOf(n, docLang), Mutant: attr(n, "mutant")}
	if f.Src == "" {
		f.Run.Text = Dedent(textContent(n))
	}
	return f
}

// labElement reads a <lease-lab> as lease-lab.js does: its text is its
// content, its name name= (default lab.lab).
func labElement(n *html.Node, docLang string) Found {
	f := Found{Lab: true, Options: map[string]string{}}
	for _, a := range n.Attr {
		if a.Namespace == "" {
			f.Options[a.Key] = a.Val
		}
	}
	name := attr(n, "name")
	if name == "" {
		name = labName
	}
	f.Run = Run{Name: name, Lang: langOf(n, docLang), Text: Dedent(textContent(n)), Kind: KindLab}
	return f
}

// labName is a lab's name when it gives none (lease-lab.js).
const labName = "lab.lab"

// elementName is the element's name=, else src='s file name, else timeline.tl.
func elementName(n *html.Node) string {
	if v := attr(n, "name"); v != "" {
		return v
	}
	src := attr(n, "src")
	if src == "" {
		return "timeline.tl"
	}
	if i := strings.IndexAny(src, "?#"); i >= 0 {
		src = src[:i]
	}
	if i := strings.LastIndex(src, "/"); i >= 0 {
		src = src[i+1:]
	}
	if src == "" {
		return "timeline.tl"
	}
	return src
}

// fenceKindOf says whether code is a fence's, and of which kind: a pre's
// code, or a pre that holds no code (Pygments under Sphinx), that the
// generator marked (language-lease-timeline, highlight-lease-timeline, or
// lease-lab's for a lab), whose pre's data-language names the kind
// (Expressive Code), whose first line is a marked directive, or whose
// first line is the kind's language alone (languageLineKind) — and not
// inside a <lease-timeline> or a <lease-lab> (fences.js convertReady).
func fenceKindOf(code *html.Node) (fenceKind, bool) {
	pre := preOf(code)
	if pre == nil || (code == pre && firstElement(pre, atom.Code) != nil) {
		return fenceKind{}, false
	}
	for a := pre; a != nil; a = a.Parent {
		if a.Type == html.ElementNode && (a.Data == Marker || a.Data == LabMarker) {
			return fenceKind{}, false
		}
	}
	for _, k := range fenceKinds {
		if markedAs(code, pre, k.tag) {
			return k, true
		}
	}
	for _, k := range fenceKinds {
		if code != pre && attr(pre, "data-language") == k.tag {
			return k, true // Expressive Code's (fences.js dataLanguageKind)
		}
	}
	text := fenceText(code)
	if !strings.HasPrefix(strings.TrimLeftFunc(text, isJSSpace), "#!") {
		return languageLineKind(code)
	}
	for _, k := range fenceKinds {
		if parseFence(text, k).Marked {
			return k, true
		}
	}
	return fenceKind{}, false
}

// preOf is the pre a code block's text is in (fences.js preOf): a code's
// parent pre, or the block itself when it is a pre; nil for neither.
func preOf(code *html.Node) *html.Node {
	if code.Type != html.ElementNode {
		return nil
	}
	if code.DataAtom == atom.Pre {
		return code
	}
	if p := code.Parent; code.DataAtom == atom.Code && p != nil && p.Type == html.ElementNode && p.DataAtom == atom.Pre {
		return p
	}
	return nil
}

// languageLine is a first line that is one word alone (fences.js
// LANGUAGE_LINE).
var languageLine = regexp.MustCompile(`^(\S+)[ \t]*(?:\n|$)`)

// languageClass is a class that names a code block's language.
var languageClass = regexp.MustCompile(`(^|\s)language-`)

// languageLineKind is fences.js languageLineKind: the kind whose language
// is the first line alone of a pre's code with no language class
// (nbconvert writes an unknown fence's language so).
func languageLineKind(code *html.Node) (fenceKind, bool) {
	if code.DataAtom != atom.Code || preOf(code) == nil || languageClass.MatchString(attr(code, "class")) {
		return fenceKind{}, false
	}
	m := languageLine.FindStringSubmatch(fenceText(code))
	if m == nil {
		return fenceKind{}, false
	}
	for _, k := range fenceKinds {
		if k.tag == m[1] {
			return k, true
		}
	}
	return fenceKind{}, false
}

// fenceSource is fences.js fenceSource: the code block's text without the
// language line nbconvert put first when the block is of kind k by it.
func fenceSource(code *html.Node, k fenceKind) string {
	text := fenceText(code)
	if lk, ok := languageLineKind(code); ok && lk.tag == k.tag {
		return languageLine.ReplaceAllString(text, "")
	}
	return text
}

// markedAs reports whether the generator marked code's block as a fence of
// the language word (fences.js fenceSelector).
func markedAs(code, pre *html.Node, word string) bool {
	class := "language-" + word
	switch {
	case code != pre && (hasClass(code, class) || attr(code, "data-lang") == word && hasAttr(code, "data-lang")):
		return true
	case code != pre && (hasClass(pre, word) || hasClass(pre, class)):
		return true
	}
	for a := pre.Parent; a != nil; a = a.Parent {
		if a.Type == html.ElementNode && (hasClass(a, class) && code != pre || hasClass(a, "highlight-"+word)) {
			return true
		}
	}
	return false
}

// fence reads a fence of kind k as fences.js convert does.
func fence(code *html.Node, docLang string, k fenceKind) Found {
	pre := preOf(code)
	block := fenceBlock(pre)
	var els []*html.Node
	if code != pre {
		els = append(els, code)
	}
	for e := pre; e != nil && e != block.Parent; e = e.Parent {
		els = append(els, e)
	}
	parsed := parseFence(fenceSource(code, k), k)
	opts := attributeOptions(els, k.keys)
	for k, v := range parsed.Options {
		opts[k] = v
	}
	lang := docLang
	if v, ok := opts["lang"]; ok {
		if v != "" {
			lang = v
		}
	} else {
		lang = langOf(block.Parent, docLang)
	}
	if k.tag == LabMarker {
		name := cmp.Or(opts["name"], labName)
		return Found{Fence: true, Lab: true, Options: opts, Unknown: parsed.Unknown, Unreadable: unreadable(parsed, k.keys),
			Run: Run{Text: parsed.Text, Name: name, Lang: LangTag(lang), Kind: KindLab}}
	}
	name := cmp.Or(opts["name"], "timeline.tl")
	return Found{Fence: true, Options: opts, Unknown: parsed.Unknown, Unreadable: Unreadable(parsed),
		Run: Run{Text: parsed.Text, Name: name, Lang: LangTag(lang), Mutant: opts["mutant"]}}
}

// fenceBlock is fences.js fenceBlock: the pre, or the highlighter's
// wrappers around it (at most two that hold no other pre: isWrapper).
func fenceBlock(pre *html.Node) *html.Node {
	block := pre
	for range 2 {
		p := block.Parent
		if !isWrapper(p) {
			break
		}
		pres := 0
		for d := range p.Descendants() {
			if d.Type == html.ElementNode && d.DataAtom == atom.Pre {
				pres++
			}
		}
		if pres != 1 {
			break
		}
		block = p
	}
	return block
}

// isWrapper reports whether n wraps a fence's pre for its highlighter
// (fences.js isWrapper): a div with a highlighter's class, or the figure
// Expressive Code puts the pre in inside its div.expressive-code.
func isWrapper(n *html.Node) bool {
	if n == nil || n.Type != html.ElementNode {
		return false
	}
	if n.DataAtom == atom.Figure {
		p := n.Parent
		return p != nil && p.Type == html.ElementNode && hasClass(p, "expressive-code")
	}
	return n.DataAtom == atom.Div && wrapperClass.MatchString(attr(n, "class"))
}

// generatedID is an id a theme's script gives code blocks (fences.js
// GENERATED_ID).
var generatedID = regexp.MustCompile(`^__code_\d+$`)

// attributeOptions is fences.js attributeOptions: KEY or data-KEY on the
// nearest of els (data-lang is not an option, nor a generated id).
func attributeOptions(els []*html.Node, keys []string) map[string]string {
	out := map[string]string{}
	for _, k := range keys {
		for _, e := range els {
			if hasAttr(e, k) && (k != "id" || !generatedID.MatchString(attr(e, k))) {
				out[k] = attr(e, k)
				break
			}
			if k != "lang" && hasAttr(e, "data-"+k) {
				out[k] = attr(e, "data-"+k)
				break
			}
		}
	}
	return out
}

// langOf is the interface language of an element (i18n.js langOf): the
// nearest lang attribute of it or its ancestors, else the document's.
func langOf(n *html.Node, docLang string) string {
	for a := n; a != nil; a = a.Parent {
		if a.Type == html.ElementNode && hasAttr(a, "lang") {
			if v := attr(a, "lang"); v != "" {
				return LangTag(v)
			}
			break
		}
	}
	return LangTag(docLang)
}

// textContent is the DOM's textContent: every text below n, in order.
func textContent(n *html.Node) string {
	var b strings.Builder
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			b.WriteString(d.Data)
		}
	}
	return b.String()
}

// fenceText is a code block's text line by line, whatever markup the
// highlighter made of its lines (fences.js fenceText): its text, a newline
// for each <br>, and a newline after a line's element (a div, or Prism's
// token-line that Docusaurus writes without a newline character) that
// does not end in one.
func fenceText(code *html.Node) string {
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				b.WriteString(c.Data)
			case c.Type != html.ElementNode:
			case c.DataAtom == atom.Br:
				b.WriteByte('\n')
			default:
				walk(c)
				if (c.DataAtom == atom.Div || hasClass(c, "token-line")) && b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
					b.WriteByte('\n')
				}
			}
		}
	}
	walk(code)
	return b.String()
}

func firstElement(n *html.Node, a atom.Atom) *html.Node {
	for d := range n.Descendants() {
		if d.Type == html.ElementNode && d.DataAtom == a {
			return d
		}
	}
	return nil
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasAttr(n *html.Node, key string) bool {
	return slices.ContainsFunc(n.Attr, func(a html.Attribute) bool { return a.Namespace == "" && a.Key == key })
}

func hasClass(n *html.Node, class string) bool {
	return slices.Contains(strings.Fields(attr(n, "class")), class)
}
