# Schemathesis hooks for test/api/schemathesis.test.ts (loaded through SCHEMATHESIS_HOOKS).
#
# The stateful phase follows the OpenAPI links of a stored order's answer (retrieve, history, export,
# load plan, pallet contents, download), so it needs submits the service stores. Two refusals that JSON
# Schema cannot express turned away most of its generated submits: a reference already taken by an
# order with other content (the generator draws the same short references again and again, and the
# earlier phases have stored orders under them), and a container code listed twice (three codes drawn
# for several rows). For that phase alone, and for the submit alone, each submit gets a reference of its
# own and each container code once; every other phase, the submit's included, sends what was generated,
# so those refusals are still checked against the document there.
import uuid

import schemathesis

SUBMIT = "POST /api/v1/orders/submit-order/"


@schemathesis.hook
def before_call(context, case, kwargs):
    if case.operation.label != SUBMIT or case.meta is None or case.meta.phase.name != "stateful":
        return
    body = case.body
    if not isinstance(body, dict):
        return
    body["reference"] = f"ST-{uuid.uuid4().hex[:16]}"
    containers = body.get("order_containers")
    if isinstance(containers, list):
        codes = set()
        kept = []
        for row in containers:
            code = row.get("code") if isinstance(row, dict) else None
            if isinstance(code, str) and code in codes:
                continue
            codes.add(code)
            kept.append(row)
        body["order_containers"] = kept
