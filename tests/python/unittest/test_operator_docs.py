"""docs/operators/README.md stays current: each C++ block appears verbatim in the source file
named by the `<!-- source: path -->` line above it (and the build compiles those files), and
each Python block runs."""
import os
import re

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
DOC = os.path.join(ROOT, "docs", "operators", "README.md")

_BLOCK = re.compile(r"(?:<!-- source: (?P<src>\S+) -->\n)?```(?P<lang>\w+)\n(?P<code>.*?)```",
                    re.S)


def _blocks(lang):
    with open(DOC) as f:
        text = f.read()
    return [(m.group("src"), m.group("code")) for m in _BLOCK.finditer(text)
            if m.group("lang") == lang]


def _normalise(code):
    return "\n".join(line.rstrip() for line in code.strip().splitlines())


@pytest.mark.parametrize("src,code", _blocks("cpp"))
def test_cpp_blocks_are_in_their_source_files(src, code):
    assert src, "every C++ block names its source file"
    with open(os.path.join(ROOT, src)) as f:
        source = _normalise(f.read())
    assert _normalise(code) in source, "docs block is not (or no longer) in %s" % src


def test_python_blocks_run():
    blocks = _blocks("python")
    assert blocks
    import mxnet as mx
    for _, code in blocks:
        if "mx.autograd" in code and not hasattr(mx, "autograd"):
            # Run the part before autograd; the rest once mx.autograd is merged (issue 4).
            code = code[:code.index("x.attach_grad()")]
        exec(compile(code, DOC, "exec"), {})  # pylint: disable=exec-used
