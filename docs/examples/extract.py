# A summary extractor in Python, spoken to over docs/protocol.md: one JSON request a line
# on stdin ({"id": 1, "op": "extract", "text": ...}), one JSON answer a line on stdout
# naming the request's id ({"id": 1, "summary": ...}, null when there is none). It returns
# the text between the first <summary> and the last </summary>, otherwise the whole answer. Run it with
#   compacteval run -extractor 'cmd:python3 extract.py'
import json
import sys


def extract(text):
    start, end = text.find("<summary>"), text.rfind("</summary>")
    if start >= 0 and end > start:
        text = text[start + len("<summary>"):end]
    return text.strip() or None


for line in sys.stdin:
    if not line.strip():
        continue
    req = {}
    try:
        req = json.loads(line)
        out = {"summary": extract(req["text"])} if req.get("op") == "extract" else {"error": "unknown op"}
    except Exception as e:
        out = {"error": str(e)}
    sys.stdout.write(json.dumps({"id": req.get("id"), **out}) + "\n")
    sys.stdout.flush()
