# Schemathesis hooks for test/api/schemathesis.test.ts (loaded through SCHEMATHESIS_HOOKS).
#
# The stateful phase follows the OpenAPI links of a stored order's answer (retrieve, history, export,
# load plan, pallet contents, download), so it needs submits the service stores. Two refusals that JSON
# Schema cannot express turned away most of its generated submits: a reference already taken by an
# order with other content (the generator draws the same short references again and again, and the
# earlier phases have stored orders under them), and a container code listed twice (three codes drawn
# for several rows); and decimals drawn with more than six places or at zero, rules the schema states
# only in words. For that phase alone, and for the submit alone, each submit gets a reference of its own,
# each container code once and plain decimals; an amend keeps what names the order, takes its cargo with
# one count more and a container its lane enables. Every other phase, the submit's and the amend's
# included, sends what was generated, so those refusals are still checked against the document there.
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
CONTAINER_OF_LANE = {101: "40ft", 102: "20ft", 201: "40ft-HC"}


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
    plain_decimals(body)


# What a decimal field of a cargo row may hold, and a value it takes in the stateful phase when the
# generated one breaks a rule JSON Schema does not state (at most 6 decimals, greater than 0, bounds).
DECIMALS = {"length": "120", "width": "80", "height": "100", "weight": "25", "quantity": "10", "max_load_on_top": "50"}
CARGO = ("order_items", "shipment_skus", "pre_builts", "pallets", "loose_boxes", "boxes")


def plain_decimals(body):
    """Decimals drawn with more than six places, or zero, or over the quantity's bound, are the
    submit's refusals the other phases check; here they would keep every scenario from storing an
    order, so each such value is replaced by a plain one."""
    for field in CARGO:
        rows = body.get(field)
        if not isinstance(rows, list):
            continue
        for row in rows:
            if not isinstance(row, dict):
                continue
            for name, plain in DECIMALS.items():
                if name in row and not acceptable(row[name], name):
                    row[name] = plain


def acceptable(value, name):
    text = str(value)
    if isinstance(value, bool) or not text.replace(".", "", 1).isdigit():
        return False
    if "." in text and len(text.split(".")[1]) > 6:
        return False
    number = float(text)
    if name == "quantity":
        return 0.01 <= number <= 20000
    return number > 0 or name == "max_load_on_top"


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
    # Generated cargo names SKUs and container codes the lane does not have (a 400 the other phases
    # check): the amend takes the order's own cargo with one count more, a change the service must plan
    # again, and a container its lane enables.
    for alias in ("shipment_skus", "pallets", "boxes"):
        body.pop(alias, None)
    for field in ("order_items", "pre_builts", "loose_boxes"):
        body[field] = order.get(field, [])
    one_more(body)
    # retrieve does not show the containers: one the order's lane enables
    body["order_containers"] = [{"code": CONTAINER_OF_LANE.get(order.get("lane"), "40ft")}]
    plain_decimals(body)


def one_more(body):
    """One unit, pre-built pallet or loose box more in the first row that has a count below the limits."""
    for row in body.get("loose_boxes", []) + body.get("pre_builts", []):
        if isinstance(row.get("count"), int) and row["count"] < 100:
            row["count"] += 1
            return
    for row in body.get("order_items", []):
        try:
            quantity = float(row.get("quantity"))
        except (TypeError, ValueError):
            continue
        if quantity < 1000:
            row["quantity"] = f"{quantity + 1:.6f}"
            return
