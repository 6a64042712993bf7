"""leaselab_sphinx: leaselab's elements as Sphinx directives.

The directives ``lease-timeline``, ``lease-lab`` and ``lease-exercise``,
in reStructuredText (``.. lease-timeline::``) and in MyST Markdown
(```` ```{lease-timeline} ````), write the element the npm package's
remark and markdown-it plugins write for the same fence::

    <lease-timeline step="3"><pre>TEXT</pre></lease-timeline>
    <lease-lab name="a.lab"><pre>TEXT</pre></lease-lab>
    <lease-exercise language="python"><script type="text/plain">CODE</script></lease-exercise>

Options come as the directive's options (``:step: 3``) or, as in a fence,
in a first line ``#! step=3``, which wins; the text is read as the bundle's
fences.js reads a fence (the same directive line, dedent and checks). A
page that uses one gets the bundle's script (``leaselab_script``: a path
under ``_static``, or a URL), and no other page does.

A block that cannot be read (an option that is none, a value an
exercise's option does not take, a text of nothing but blanks and
comments) fails the build, naming its source file and line. With a
leaselab command (``leaselab_command``: a program, or a list of a program
and its first arguments; by default ``leaselab`` when it is on the PATH;
``""`` for none), each timeline is checked with ``leaselab check`` as it is
read: a timeline that does not parse fails the build, naming the source
file, line and column; one whose expectations fail on the correct engine
is a warning. Once an HTML build has finished, ``leaselab prerender`` runs
on its output (unless ``leaselab_prerender`` is False), so a page draws its
timelines without fetching the engine; its failure fails the build.

In another builder than HTML's, a block is its text as a literal block.
"""

import os
import re
import shutil
import subprocess
import tempfile

from docutils import nodes
from docutils.parsers.rst import directives
from pygments.lexers.special import TextLexer
from sphinx.errors import ExtensionError
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

logger = logging.getLogger(__name__)

# The options each element takes (fences.js OPTION_KEYS, LAB_OPTION_KEYS,
# EXERCISE_OPTION_KEYS).
KINDS = {
    "lease-timeline": ["step", "show", "mutant", "lang", "name", "height", "theme", "autoplay", "predict", "id"],
    "lease-lab": ["lang", "name", "id"],
    "lease-exercise": ["language", "lab", "lang", "id"],
}

# The values an exercise's option takes, where it takes only some (fences.js EXERCISE_VALUES).
EXERCISE_VALUES = {"language": ["javascript", "python"], "lab": ["fencing", "courier"]}

_TOKEN = re.compile(r"\s*([^\s=]+)(?:=(?:\"([^\"]*)\"?|'([^']*)'?|(\S*)))?")


def directive_tokens(s):
    """A directive's [key, value] pairs; value None for a bare key (fences.js directiveTokens)."""
    out, pos = [], 0
    while True:
        m = _TOKEN.match(s, pos)
        if not m or m.group(0) == "":
            return out
        quoted = next((g for g in m.group(2, 3, 4) if g is not None), None)
        out.append((m.group(1), (quoted or "") if "=" in m.group(0) else None))
        pos = m.end()


def dedent(text):
    """The text with common indentation and blank edge lines removed, one newline at the end (fences.js dedent)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    indents = [len(l) - len(l.lstrip(" \t")) for l in lines if l.strip()]
    cut = min(indents) if indents else 0
    return "\n".join(l[cut:] for l in lines) + "\n"


def parse_fence(raw, tag):
    """A block's text read (fences.js parseFence): its directive's options, the keys that are
    no option, the text after the directive, and how many lines come before the text's first."""
    keys = KINDS[tag]
    lines = raw.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    first = next((i for i, l in enumerate(lines) if l.strip()), -1)
    if first < 0 or not lines[first].strip().startswith("#!"):
        return {}, [], dedent(raw), max(first, 0)
    tokens = directive_tokens(lines[first].strip()[2:])
    if tokens and tokens[0][0] == tag and tokens[0][1] is None:
        tokens = tokens[1:]
    options, unknown = {}, []
    for k, v in tokens:
        if k in keys:
            options[k] = v if v is not None else ""
        else:
            unknown.append(k)
    after = next((i for i, l in enumerate(lines) if i > first and l.strip()), first + 1)
    return options, unknown, dedent("\n".join(lines[first + 1 :])), after


def unreadable(tag, options, unknown, text):
    """Why a block cannot be read, or "" (fences.js unreadable and unreadableExercise)."""
    keys = KINDS[tag]
    if unknown:
        return "the directive's keys %s are no option (%s)" % (", ".join(unknown), " ".join(keys))
    if tag == "lease-exercise":
        for k, values in EXERCISE_VALUES.items():
            v = options.get(k)
            if v is not None and v not in values:
                return "%s=%s is none of %s's values (%s)" % (k, v, k, " ".join(values))
        if options.get("lab") == "courier" and options.get("language") != "python":
            return "lab=courier is a lab in Python only: give language=python too"
        return ""
    if not any(l.strip() and not l.strip().startswith("#") for l in text.split("\n")):
        return "the block holds no step: its text has no line but blanks and comments"
    return ""


def escape_html(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def escape_script_text(code):
    """Code as a text/plain script's text: no <script nor </script in it (fences.js escapeScriptText)."""
    return re.sub(r"<(\\*)(/?script)", r"<\\\1\2", code, flags=re.IGNORECASE)


def element_html(tag, options, text):
    """The element's HTML, as the npm package's plugins write it (fence-element.js)."""
    attrs = "".join(" %s" % k if v == "" else ' %s="%s"' % (k, escape_html(v)) for k, v in options.items())
    if tag != "lease-exercise":
        return "<%s%s><pre>%s</pre></%s>\n" % (tag, attrs, escape_html(text), tag)
    code = text if text.strip() else ""
    body = '<script type="text/plain">%s</script>' % escape_script_text(code) if code else ""
    return "<lease-exercise%s>%s</lease-exercise>\n" % (attrs, body)


class lease_element(nodes.General, nodes.Element):
    """A leaselab element: its HTML, and its text for other builders."""


def _visit_html(self, node):
    self.body.append(node["html"])
    raise nodes.SkipNode


def _as_literal(app, doctree, docname):
    if app.builder.format == "html":
        return
    for node in list(_find(doctree)):
        node.replace_self(nodes.literal_block(node["text"], node["text"]))


def _find(doctree):
    find = getattr(doctree, "findall", None) or doctree.traverse
    return find(lease_element)


def leaselab_command(config):
    """The leaselab command as a list, or None: leaselab_command, else leaselab on the PATH."""
    cmd = config.leaselab_command
    if cmd is None:
        found = shutil.which("leaselab")
        return [found] if found else None
    if not cmd:
        return None
    return [cmd] if isinstance(cmd, str) else list(cmd)


_CHECK_ERROR = re.compile(r"^[^\n:]*:(\d+):(\d+): (.*)$", re.MULTILINE)


def check_timeline(cmd, text, source, first_line, location, source_lines):
    """Runs leaselab check on a timeline whose first line is the source's first_line
    (source_lines: the source's lines, or None where it cannot be read)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "timeline.tl")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        r = subprocess.run(cmd + ["check", path], capture_output=True, encoding="utf-8", timeout=120)
    if r.returncode == 0:
        return
    if r.returncode == 1:
        logger.warning(
            "a lease-timeline's expectations fail on the correct engine, or an invariant breaks unannounced:\n%s",
            r.stdout.strip(),
            location=location,
        )
        return
    m = _CHECK_ERROR.search(r.stderr)
    if not m:
        raise ExtensionError("%s:%d: leaselab check: %s" % (source, first_line, (r.stderr or r.stdout).strip()))
    line, col = first_line + int(m.group(1)) - 1, int(m.group(2))
    text_lines = text.split("\n")
    if source_lines and 0 < line <= len(source_lines) and int(m.group(1)) <= len(text_lines):
        # The text was dedented: the column in the source is further right by what was cut.
        src, txt = source_lines[line - 1], text_lines[int(m.group(1)) - 1]
        col += (len(src) - len(src.lstrip(" \t"))) - (len(txt) - len(txt.lstrip(" \t")))
    raise ExtensionError("%s:%d:%d: a lease-timeline does not run: %s" % (source, line, col, m.group(3)))


def read_lines(source):
    """The source file's lines, or None where it cannot be read."""
    try:
        with open(source, encoding="utf-8") as f:
            return f.read().split("\n")
    except OSError:
        return None


def content_line(content, lineno, source_lines, fallback):
    """The source's line (1-based) of the content's first line: the first line at or after the
    directive's (lineno) that reads as the content's first non-blank line, less the blank lines
    before it (MyST counts a directive's content from its fence, before its options); fallback
    where the source cannot be read or holds no such line."""
    lead = next((i for i, l in enumerate(content) if l.strip()), None)
    if lead is None or not source_lines:
        return fallback
    want = content[lead].strip()
    for n in range(max(lineno, 1), len(source_lines) + 1):
        if source_lines[n - 1].strip() == want:
            return n - lead
    return fallback


class LeaseDirective(SphinxDirective):
    """A block of a leaselab element; tag is set by each kind's subclass."""

    has_content = True
    tag = ""

    def run(self):
        source, _ = self.get_source_info()
        raw = "\n".join(self.content)
        source_lines = read_lines(source)
        first = content_line(list(self.content), self.lineno, source_lines, self.content_offset + 1)
        given, unknown, text, before = parse_fence(raw, self.tag)
        options = {k: (v or "") for k, v in self.options.items()}
        options.update(given)
        why = unreadable(self.tag, options, unknown, text)
        if why:
            raise ExtensionError("%s:%d: a %s block cannot be read: %s" % (source, first, self.tag, why))
        cmd = leaselab_command(self.config)
        if self.tag == "lease-timeline" and cmd:
            check_timeline(cmd, text, source, first + before, (self.env.docname, first + before), source_lines)
        node = lease_element()
        node["html"] = element_html(self.tag, options, text)
        node["text"] = text
        self.set_source_info(node)
        return [node]


def _directive(tag):
    spec = {k: directives.unchanged for k in KINDS[tag]}
    return type(tag.replace("-", "_"), (LeaseDirective,), {"tag": tag, "option_spec": spec})


def _script_on_pages_that_use_it(app, pagename, templatename, context, doctree):
    if doctree is not None and next(iter(_find(doctree)), None) is not None:
        app.add_js_file(app.config.leaselab_script, defer="defer")


def _prerender(app, exception):
    if exception is not None or app.builder.format != "html" or not app.config.leaselab_prerender:
        return
    cmd = leaselab_command(app.config)
    if not cmd:
        return
    r = subprocess.run(cmd + ["prerender", app.outdir], capture_output=True, encoding="utf-8", timeout=600)
    out = (r.stdout + r.stderr).strip()
    if r.returncode != 0:
        raise ExtensionError("leaselab prerender %s:\n%s" % (app.outdir, out))
    logger.info(out)


def _bundle_script():
    """leaselab.js of the bundle this file is in (BUNDLE/sphinx/), or leaselab.js."""
    bundle = os.path.basename(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return bundle + "/leaselab.js" if bundle.startswith("leaselab-") else "leaselab.js"


def setup(app):
    app.add_config_value("leaselab_script", _bundle_script(), "html")
    app.add_config_value("leaselab_command", None, "env")
    app.add_config_value("leaselab_prerender", True, "html")
    app.add_node(lease_element, html=(_visit_html, None))
    for tag in KINDS:
        app.add_directive(tag, _directive(tag))
        app.add_lexer(tag, TextLexer)  # a plain code-block of the language: fences.js converts it
    app.connect("doctree-resolved", _as_literal)
    app.connect("html-page-context", _script_on_pages_that_use_it)
    app.connect("build-finished", _prerender)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
