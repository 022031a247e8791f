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
import json
import os
import urllib.request
import uuid

import schemathesis

SUBMIT = "POST /api/v1/orders/submit-order/"
AMEND = "PUT /api/v1/orders/detailed-orders/{id}/"
# The seed's lanes by id (test/support/seed.ts): an amend keeps the order's supplier and consignee.
LANES = {
    101: ("Acme Supplier Ltd", "Globex Consignee GmbH"),
    102: ("Acme Supplier Ltd", "Initech Receiving"),
    201: ("Other Supplier", "Other Consignee"),
}


@schemathesis.hook
def before_call(context, case, kwargs):
    if case.meta is None or case.meta.phase.name != "stateful":
        return
    if case.operation.label == AMEND:
        keep_what_names_the_order(case, kwargs)
        return
    if case.operation.label != SUBMIT:
        return
    body = case.body
    if not isinstance(body, dict):
        return
    body["reference"] = f"ST-{uuid.uuid4().hex[:16]}"
    each_code_once(body)


def each_code_once(body):
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


def keep_what_names_the_order(case, kwargs):
    """An amend must keep the order's reference, lane and mode (a 400 otherwise, which the earlier phases
    check): in the stateful phase, the generated body takes the order's own, read from retrieve, so that
    a followed link amends the order and its answer and ETag are checked too."""
    body = case.body
    if not isinstance(body, dict):
        return
    # the service and key the test runs schemathesis against (schemathesis.test.ts sets both)
    url = f"{os.environ['ORDERS_ST_URL']}{case.formatted_path}"
    headers = {"Authorization": f"Api-Key {os.environ['ORDERS_ST_KEY']}"}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10) as response:
            order = json.load(response)
    except Exception:
        return
    body["reference"] = order.get("reference", body.get("reference"))
    body["transportation_mode"] = order.get("transport_name", body.get("transportation_mode"))
    supplier, consignee = LANES.get(order.get("lane"), (body.get("supplier_name"), body.get("consignee_name")))
    body["supplier_name"], body["consignee_name"] = supplier, consignee
    each_code_once(body)
