#!/usr/bin/python3
# Validates JSON files against the schema `gpuwb schema brief` printed, for tst_briefschema:
#   briefschema.py SCHEMA FILE...
# Checks the schema itself (Draft 2020-12 meta-schema) and prints one line per file:
# "valid FILE" or "invalid FILE POINTER: MESSAGE" (the first error by position). Exit 2 when the
# schema is not a valid schema or jsonschema is missing. Uses python3-jsonschema (Debian).
import json
import sys

try:
    import jsonschema
except ImportError:
    print("python3-jsonschema is not installed (packaging/install-deps.sh installs it)", file=sys.stderr)
    sys.exit(2)

with open(sys.argv[1], encoding="utf-8") as f:
    schema = json.load(f)
try:
    jsonschema.Draft202012Validator.check_schema(schema)
except jsonschema.SchemaError as e:
    print("the schema is not a valid JSON Schema: " + e.message, file=sys.stderr)
    sys.exit(2)
validator = jsonschema.Draft202012Validator(schema)
for name in sys.argv[2:]:
    with open(name, encoding="utf-8") as f:
        document = json.load(f)
    errors = sorted(validator.iter_errors(document), key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        e = errors[0]
        print("invalid %s /%s: %s" % (name, "/".join(map(str, e.absolute_path)), e.message[:200]))
    else:
        print("valid " + name)
