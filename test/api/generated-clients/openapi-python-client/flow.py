"""The order flow through the client openapi-python-client makes of the served document.

test/api/generated-clients.test.ts generates the package `shipment_orders_api_client`, puts it on PYTHONPATH
(with config.yaml, the one setting this document needs) and runs this with ORDERS_URL, ORDERS_KEY and ORDERS_RUN (a suffix for this run's references). Only the
generated typed API is used: its models to build requests and read answers, and for the errors the typed
answer of each documented status (`parsed` is the ErrorDetail, OrderLookupError or ValidationError the
document gives that status); a status the document does not list raises the client's UnexpectedStatus.
Each step prints "ok - <step>"; the first that fails raises, and the exit status is not 0.
"""

import os
import time
from http import HTTPStatus

from shipment_orders_api_client import AuthenticatedClient
from shipment_orders_api_client.types import File
from shipment_orders_api_client.api.orders import (
    download_packing_instructions,
    list_orders,
    load_plan,
    order_history,
    pallet_contents,
    retrieve_order,
    submit_order,
)
from shipment_orders_api_client.models import (
    ErrorDetail,
    ListOrdersPaginate,
    LooseBoxInput,
    OrderContainerInput,
    OrderContainerInputCode,
    OrderItemInput,
    OrderList,
    OrderLookupError,
    OrderStatus,
    PreBuiltInput,
    SubmitOrderCreated,
    SubmitOrderRequest,
    SubmitOrderRequestTransportationMode,
    ValidationError,
)

URL = os.environ["ORDERS_URL"]
RUN = os.environ["ORDERS_RUN"]


def step(name):
    print(f"ok - {name}", flush=True)


def check(condition, what):
    if not condition:
        raise AssertionError(what)


def client(key):
    return AuthenticatedClient(base_url=URL, token=key, prefix="Api-Key", raise_on_unexpected_status=True)


def order(reference, mode, **cargo):
    return SubmitOrderRequest(
        supplier_name="Acme Supplier Ltd",
        consignee_name="Globex Consignee GmbH",
        reference=reference,
        transportation_mode=mode,
        send_email=False,
        **cargo,
    )


api = client(os.environ["ORDERS_KEY"])

skus = submit_order.sync(
    client=api,
    body=order(
        f"PO-{RUN}-1",
        SubmitOrderRequestTransportationMode.OCEANFCL,
        order_items=[OrderItemInput(item="SKU-1001", quantity="24", purchase_order="PO-7", line_item_number="1")],
        order_containers=[OrderContainerInput(code=OrderContainerInputCode("40ft"))],
    ),
)
check(isinstance(skus, SubmitOrderCreated) and skus.service_ref.startswith("SO-"), f"created: {skus}")
step("submit with order_items")

cargo = submit_order.sync(
    client=api,
    body=order(
        f"PO-{RUN}-2",
        SubmitOrderRequestTransportationMode.TRUCKFTL,
        pre_builts=[PreBuiltInput(name="P1", length="120", width="80", height="150", weight="400", count=2)],
        loose_boxes=[LooseBoxInput(name="B1", length=40, width=30, height="20.5", weight=5, count=6)],
        order_containers=[OrderContainerInput(code=OrderContainerInputCode("20ft"), count=1)],
    ),
)
check(isinstance(cargo, SubmitOrderCreated) and cargo.order_id != skus.order_id, "two orders")
step("submit with pre_builts and loose_boxes")

for created in (skus, cargo):
    deadline = time.monotonic() + 120
    while True:
        retrieved = retrieve_order.sync(created.order_id, client=api)
        if retrieved.status != OrderStatus.SUBMITTED or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    check(retrieved.status == OrderStatus.PLANNED, f"{created.service_ref} is {retrieved.status}")
check(retrieved.reference == f"PO-{RUN}-2" and retrieved.loose_boxes[0].name == "B1", f"retrieved: {retrieved}")
step("retrieve until planned")

envelope = list_orders.sync(client=api, search=skus.service_ref, page_size=5)
check(isinstance(envelope, OrderList) and envelope.count == 1, f"envelope: {envelope}")
check(envelope.results[0].service_ref == skus.service_ref and envelope.results[0].order_items[0].item == "SKU-1001", "the order listed")
step("list with the envelope")

bare = list_orders.sync(client=api, search=cargo.service_ref, paginate=ListOrdersPaginate.FALSE)
check(isinstance(bare, list) and [listed.service_ref for listed in bare] == [cargo.service_ref], f"bare list: {bare}")
step("list with paginate=false")

pallets = pallet_contents.sync(client=api, order=skus.service_ref)
check(isinstance(pallets, list) and pallets[0].pallet_index == "AP1", f"pallets: {pallets}")
check(sum(content.quantity for pallet in pallets for content in pallet.contents) == 24, "24 units on the pallets")
step("pallet contents")

plan = load_plan.sync(client=api, order=cargo.service_ref)
check(plan.service_ref == cargo.service_ref and len(plan.containers) == 1 and len(plan.containers[0].placements) >= 2, f"plan: {plan}")
sku_containers = len(load_plan.sync(client=api, order=skus.service_ref).containers)
check(sku_containers == 1, f"one 40ft for 24 cartons, not {sku_containers}: a count left out is not 5")
step("load plan")

# config.yaml maps application/pdf to application/octet-stream: the answer is the client's File.
pdf = download_packing_instructions.sync(client=api, order=f"PO-{RUN}-1")
check(isinstance(pdf, File) and pdf.payload.read(4) == b"%PDF", f"PDF: {pdf!r}")
check(retrieve_order.sync(skus.order_id, client=api).packing_instructions_downloaded is True, "marked downloaded")
step("download the packing instructions (%PDF)")

history = order_history.sync(skus.order_id, client=api)
check(history[0].type_ == "OrderSubmitted" and any(event.type_ == "OrderPlanned" for event in history), f"history: {history}")
step("history")

unauthorized = list_orders.sync_detailed(client=client("not-a-key"))
check(unauthorized.status_code == HTTPStatus.UNAUTHORIZED and isinstance(unauthorized.parsed, ErrorDetail) and unauthorized.parsed.detail, f"401: {unauthorized}")
step("401 with detail")

not_found = retrieve_order.sync_detailed(999999999, client=api)
check(not_found.status_code == HTTPStatus.NOT_FOUND and isinstance(not_found.parsed, ErrorDetail) and not_found.parsed.detail, f"404: {not_found}")
step("404 on retrieve")

unknown = pallet_contents.sync_detailed(client=api, order=f"NO-SUCH-{RUN}")
check(unknown.status_code == HTTPStatus.BAD_REQUEST and isinstance(unknown.parsed, OrderLookupError) and len(unknown.parsed.order) == 1, f"400: {unknown}")
step("400 under order for an unknown order")

invalid = submit_order.sync_detailed(
    client=api,
    body=order(
        f"PO-{RUN}-3",
        SubmitOrderRequestTransportationMode.OCEANFCL,
        order_items=[OrderItemInput(item="SKU-1001", quantity=1), OrderItemInput(item="NO-SUCH-SKU", quantity=1)],
        order_containers=[OrderContainerInput(code=OrderContainerInputCode("40ft"))],
    ),
)
check(invalid.status_code == HTTPStatus.BAD_REQUEST and isinstance(invalid.parsed, ValidationError), f"400: {invalid}")
rows = invalid.parsed["order_items"]
check(rows[0] == {} and "NO-SUCH-SKU" in rows[1]["item"][0], f"400: {invalid.parsed.to_dict()}")
step("400 with field errors on an invalid submit")
