"""The C API documents itself: every MXNET_DLL function of the public C headers
(include/mxnet/c_api.h, c_predict_api.h: those with an extern "C" block) has a comment right above
it in the one format c_api.h describes:

    /*! \\brief What the function does.
     *  Ownership: who owns each pointer it takes or gives back.
     *  \\return 0 on success, -1 on failure (MXGetLastError). */

Reads the headers as text; needs no library."""
import glob
import os
import re

import pytest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
INT_RETURN = "0 on success, -1 on failure (MXGetLastError)."

_DECL = re.compile(r"^MXNET_DLL\s+((?:const\s+)?\w+\s*\**)\s*(\w+)\s*\(", re.M)
_DOC = re.compile(r"/\*! \\brief (?P<brief>.+?)\n \*  Ownership: (?P<own>.+?)\n"
                  r" \*  \\return (?P<ret>.+?) \*/$", re.S)


def _c_api_headers():
    headers = []
    for path in sorted(glob.glob(os.path.join(REPO, "include", "mxnet", "*.h"))):
        with open(path) as f:
            text = f.read()
        if 'extern "C"' in text and _DECL.search(text):
            headers.append((os.path.relpath(path, REPO), text))
    return headers


def _declarations(text):
    """(return type, name, the comment right above or None) per MXNET_DLL function."""
    for m in _DECL.finditer(text):
        above = text[:m.start()].rstrip()
        comment = None
        if above.endswith("*/"):
            start = above.rfind("/*")
            comment = above[start:]
        yield re.sub(r"\s+", "", m.group(1)), m.group(2), comment


def _problems(header, text):
    found = []
    for ret_type, name, comment in _declarations(text):
        where = "%s: %s" % (header, name)
        doc = _DOC.fullmatch(comment) if comment else None
        if doc is None:
            found.append(where + ": no doc comment in the format (\\brief, Ownership:, \\return)")
            continue
        ret = " ".join(doc.group("ret").split())
        if ret_type == "int" and ret != INT_RETURN:
            found.append("%s: \\return must read '%s', not '%s'" % (where, INT_RETURN, ret))
        if ret_type != "int" and ret == INT_RETURN:
            found.append(where + ": returns %s, not a status code" % ret_type)
        if len(doc.group("brief").split()) < 2 or len(doc.group("own").split()) < 2:
            found.append(where + ": empty \\brief or Ownership")
    return found


def test_the_c_headers_are_found():
    headers = dict(_c_api_headers())
    assert os.path.join("include", "mxnet", "c_api.h") in headers
    assert os.path.join("include", "mxnet", "c_predict_api.h") in headers
    names = [n for text in headers.values() for _, n, _ in _declarations(text)]
    assert len(names) >= 230 and "MXNDArrayCreateEx64" in names and "MXPredCreate" in names


@pytest.mark.parametrize("header,text", _c_api_headers(), ids=lambda v: os.path.basename(v)
                         if isinstance(v, str) and v.endswith(".h") else "")
def test_every_function_has_a_doc_comment(header, text):
    problems = _problems(header, text)
    assert not problems, "\n".join(problems)


def test_the_checker_catches_a_missing_or_malformed_comment():
    good = ("/*! \\brief Does a thing.\n *  Ownership: out borrowed.\n"
            " *  \\return 0 on success, -1 on failure (MXGetLastError). */\n"
            "MXNET_DLL int MXGood(int* out);\n")
    assert _problems("h", good) == []
    bare = "int x;\nMXNET_DLL int MXBare(int* out);\n"
    assert "no doc comment" in _problems("h", bare)[0]
    no_owner = "/*! \\brief Does a thing.\n *  \\return 0 on success. */\nMXNET_DLL int MXNoOwner();\n"
    assert "no doc comment" in _problems("h", no_owner)[0]
    wrong_ret = good.replace("-1 on failure (MXGetLastError).", "-1 on error.")
    assert "must read" in _problems("h", wrong_ret)[0]
