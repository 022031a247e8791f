"""The order flow through the client openapi-generator's `python` generator makes of the served document.

test/api/generated-clients.test.ts generates the package `openapi_client`, puts it on PYTHONPATH and runs
this with ORDERS_URL, ORDERS_KEY and ORDERS_RUN (a suffix for this run's references). Only the generated
typed API is used: its models to build requests and read answers, its exceptions for the errors. Each
step prints "ok - <step>"; the first that fails raises, and the exit status is not 0.
"""

import os
import time

import openapi_client
from openapi_client.exceptions import BadRequestException, NotFoundException, UnauthorizedException
from openapi_client.models import (
    ErrorDetail,
    LooseBoxInput,
    OrderContainerInput,
    OrderItemInput,
    OrderList,
    OrderLookupError,
    PreBuiltInput,
    PreBuiltInputHeight,
    PreBuiltInputLength,
    PreBuiltInputWeight,
    PreBuiltInputWidth,
    LooseBoxInputWeight,
    OrderItemInputQuantity,
    SubmitOrderRequest,
)

URL = os.environ["ORDERS_URL"]
RUN = os.environ["ORDERS_RUN"]


def step(name):
    print(f"ok - {name}", flush=True)


def check(condition, what):
    if not condition:
        raise AssertionError(what)


def orders_api(key):
    configuration = openapi_client.Configuration(host=URL, api_key={"ApiKey": key}, api_key_prefix={"ApiKey": "Api-Key"})
    return openapi_client.OrdersApi(openapi_client.ApiClient(configuration))


api = orders_api(os.environ["ORDERS_KEY"])

skus = api.submit_order(
    SubmitOrderRequest(
        supplier_name="Acme Supplier Ltd",
        consignee_name="Globex Consignee GmbH",
        reference=f"PO-{RUN}-1",
        transportation_mode="OceanFCL",
        order_items=[OrderItemInput(item="SKU-1001", quantity=OrderItemInputQuantity(24), purchase_order="PO-7", line_item_number="1")],
        order_containers=[OrderContainerInput(code="40ft")],
        send_email=False,
    )
)
check(skus.order_id >= 1 and skus.service_ref.startswith("SO-"), f"created: {skus}")
step("submit with order_items")

cargo = api.submit_order(
    SubmitOrderRequest(
        supplier_name="Acme Supplier Ltd",
        consignee_name="Globex Consignee GmbH",
        reference=f"PO-{RUN}-2",
        transportation_mode="TruckFTL",
        pre_builts=[
            PreBuiltInput(
                name="P1",
                length=PreBuiltInputLength("120"),
                width=PreBuiltInputWidth("80"),
                height=PreBuiltInputHeight("150"),
                weight=PreBuiltInputWeight("400"),
                count=2,
            )
        ],
        loose_boxes=[
            LooseBoxInput(
                name="B1",
                length=PreBuiltInputLength("40"),
                width=PreBuiltInputWidth("30"),
                height=PreBuiltInputHeight("20.5"),
                weight=LooseBoxInputWeight(5),
                count=6,
            )
        ],
        order_containers=[OrderContainerInput(code="20ft", count=1)],
        send_email=False,
    )
)
check(cargo.order_id != skus.order_id, "two orders")
step("submit with pre_builts and loose_boxes")

for created in (skus, cargo):
    deadline = time.monotonic() + 120
    while True:
        order = api.retrieve_order(created.order_id)
        if order.status != "submitted" or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    check(order.status == "planned", f"{created.service_ref} is {order.status}")
check(order.reference == f"PO-{RUN}-2" and order.loose_boxes[0].name == "B1", f"retrieved: {order}")
step("retrieve until planned")

envelope = api.list_orders(search=skus.service_ref, page_size=5).actual_instance
check(isinstance(envelope, OrderList) and envelope.count == 1, f"envelope: {envelope}")
check(envelope.results[0].service_ref == skus.service_ref and envelope.results[0].order_items[0].item == "SKU-1001", "the order listed")
step("list with the envelope")

bare = api.list_orders(search=cargo.service_ref, paginate="false").actual_instance
check(isinstance(bare, list) and [order.service_ref for order in bare] == [cargo.service_ref], f"bare list: {bare}")
step("list with paginate=false")

pallets = api.pallet_contents(skus.service_ref)
check(len(pallets) >= 1 and pallets[0].pallet_index == "AP1", f"pallets: {pallets}")
check(sum(content.quantity for pallet in pallets for content in pallet.contents) == 24, "24 units on the pallets")
step("pallet contents")

plan = api.load_plan(cargo.service_ref)
check(plan.service_ref == cargo.service_ref and len(plan.containers) == 1, f"plan: {plan}")
check(len(plan.containers[0].placements) >= 2, "placements")
step("load plan")

pdf = api.download_packing_instructions(f"PO-{RUN}-1")
check(isinstance(pdf, (bytes, bytearray)) and pdf[:4] == b"%PDF", f"PDF: {pdf[:16]!r}")
check(api.retrieve_order(skus.order_id).packing_instructions_downloaded is True, "marked downloaded")
step("download the packing instructions (%PDF)")

history = api.order_history(skus.order_id)
check(history[0].type == "OrderSubmitted" and any(event.type == "OrderPlanned" for event in history), f"history: {history}")
step("history")

try:
    orders_api("not-a-key").list_orders()
    raise AssertionError("no 401")
except UnauthorizedException as error:
    check(error.status == 401 and isinstance(error.data, ErrorDetail) and error.data.detail, f"401: {error.data!r}")
step("401 with detail")

try:
    api.retrieve_order(999999999)
    raise AssertionError("no 404")
except NotFoundException as error:
    check(isinstance(error.data, ErrorDetail) and error.data.detail, f"404: {error.data!r}")
step("404 on retrieve")

try:
    api.pallet_contents(f"NO-SUCH-{RUN}")
    raise AssertionError("no 400")
except BadRequestException as error:
    check(isinstance(error.data, OrderLookupError) and len(error.data.order) == 1, f"400: {error.data!r}")
step("400 under order for an unknown order")

try:
    api.submit_order(
        SubmitOrderRequest(
            supplier_name="Acme Supplier Ltd",
            consignee_name="Globex Consignee GmbH",
            reference=f"PO-{RUN}-3",
            transportation_mode="OceanFCL",
            order_items=[OrderItemInput(item="SKU-1001", quantity=OrderItemInputQuantity(1)), OrderItemInput(item="NO-SUCH-SKU", quantity=OrderItemInputQuantity(1))],
            order_containers=[OrderContainerInput(code="40ft")],
            send_email=False,
        )
    )
    raise AssertionError("no 400")
except BadRequestException as error:
    # ValidationError is a map of fields (additionalProperties): the client types it Dict[str, Any].
    errors = error.data
    check(isinstance(errors, dict) and error.status == 400 and errors["order_items"][0] == {} and "NO-SUCH-SKU" in errors["order_items"][1]["item"][0], f"400: {errors}")
step("400 with field errors on an invalid submit")
