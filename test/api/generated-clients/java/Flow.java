// The order flow through the client openapi-generator's `java` generator (okhttp-gson) makes of the served
// document. test/api/generated-clients.test.ts copies this into the generated Maven project, compiles both
// with `mvn compile` and runs the class with ORDERS_URL, ORDERS_KEY and ORDERS_RUN (a suffix for this run's
// references). Only the generated typed API is used: its models to build requests and read answers, its
// ApiException and JSON (the client's Gson) for the errors. Each step prints "ok - <step>"; the first that
// fails throws, and the exit status is not 0.

import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.openapitools.client.ApiClient;
import org.openapitools.client.ApiException;
import org.openapitools.client.JSON;
import org.openapitools.client.api.OrdersApi;
import org.openapitools.client.model.ErrorDetail;
import org.openapitools.client.model.LoadPlan;
import org.openapitools.client.model.LooseBoxInput;
import org.openapitools.client.model.LooseBoxInputWeight;
import org.openapitools.client.model.Order;
import org.openapitools.client.model.OrderContainerInput;
import org.openapitools.client.model.OrderHistoryEvent;
import org.openapitools.client.model.OrderItemInput;
import org.openapitools.client.model.OrderItemInputQuantity;
import org.openapitools.client.model.OrderList;
import org.openapitools.client.model.OrderLookupError;
import org.openapitools.client.model.Pallet;
import org.openapitools.client.model.PalletContent;
import org.openapitools.client.model.PreBuiltInput;
import org.openapitools.client.model.PreBuiltInputHeight;
import org.openapitools.client.model.PreBuiltInputLength;
import org.openapitools.client.model.PreBuiltInputWeight;
import org.openapitools.client.model.PreBuiltInputWidth;
import org.openapitools.client.model.SubmitOrderCreated;
import org.openapitools.client.model.SubmitOrderRequest;

public class Flow {
  static final String URL = System.getenv("ORDERS_URL");
  static final String RUN = System.getenv("ORDERS_RUN");

  interface Call {
    void run() throws Exception;
  }

  static void step(String name) {
    System.out.println("ok - " + name);
  }

  static void check(boolean condition, String what) {
    if (!condition) throw new AssertionError(what);
  }

  static OrdersApi ordersApi(String key) {
    ApiClient client = new ApiClient().setBasePath(URL);
    client.setApiKey(key);
    client.setApiKeyPrefix("Api-Key");
    return new OrdersApi(client);
  }

  /** The ApiException the client threw for a status, with the body it carried. */
  static String refusal(Call call, int status) throws Exception {
    try {
      call.run();
    } catch (ApiException error) {
      check(error.getCode() == status, status + ", not " + error.getCode() + ": " + error.getResponseBody());
      return error.getResponseBody();
    }
    throw new AssertionError("no " + status);
  }

  static SubmitOrderRequest order(String reference, SubmitOrderRequest.TransportationModeEnum mode) {
    return new SubmitOrderRequest()
        .supplierName("Acme Supplier Ltd")
        .consigneeName("Globex Consignee GmbH")
        .reference(reference)
        .transportationMode(mode)
        .sendEmail(false);
  }

  public static void main(String[] args) throws Exception {
    OrdersApi api = ordersApi(System.getenv("ORDERS_KEY"));

    SubmitOrderCreated skus = api.submitOrder(
        order("PO-" + RUN + "-1", SubmitOrderRequest.TransportationModeEnum.OCEAN_FCL)
            .addOrderItemsItem(new OrderItemInput().item("SKU-1001").quantity(new OrderItemInputQuantity("24")).purchaseOrder("PO-7").lineItemNumber("1"))
            .addOrderContainersItem(new OrderContainerInput().code(OrderContainerInput.CodeEnum._40FT)));
    check(skus.getOrderId() >= 1 && skus.getServiceRef().startsWith("SO-"), "created: " + skus);
    step("submit with order_items");

    SubmitOrderCreated cargo = api.submitOrder(
        order("PO-" + RUN + "-2", SubmitOrderRequest.TransportationModeEnum.TRUCK_FTL)
            .addPreBuiltsItem(new PreBuiltInput().name("P1").length(new PreBuiltInputLength("120")).width(new PreBuiltInputWidth("80"))
                .height(new PreBuiltInputHeight("150")).weight(new PreBuiltInputWeight("400")).count(2))
            .addLooseBoxesItem(new LooseBoxInput().name("B1").length(new PreBuiltInputLength("40")).width(new PreBuiltInputWidth("30"))
                .height(new PreBuiltInputHeight("20.5")).weight(new LooseBoxInputWeight("5")).count(6))
            .addOrderContainersItem(new OrderContainerInput().code(OrderContainerInput.CodeEnum._20FT).count(1)));
    check(!cargo.getOrderId().equals(skus.getOrderId()), "two orders");
    step("submit with pre_builts and loose_boxes");

    Order order = null;
    for (SubmitOrderCreated created : List.of(skus, cargo)) {
      long deadline = System.currentTimeMillis() + 120_000;
      do {
        order = api.retrieveOrder(created.getOrderId(), null);
        if (order.getStatus() != Order.StatusEnum.SUBMITTED) break;
        Thread.sleep(200);
      } while (System.currentTimeMillis() < deadline);
      check(order.getStatus() == Order.StatusEnum.PLANNED, created.getServiceRef() + " is " + order.getStatus());
    }
    check(order.getReference().equals("PO-" + RUN + "-2") && order.getLooseBoxes().get(0).getName().equals("B1"), "retrieved: " + order);
    step("retrieve until planned");

    OrderList envelope = api.listOrders(null, 5, null, skus.getServiceRef(), null).getOrderList();
    check(envelope.getCount() == 1, "envelope: " + envelope);
    check(envelope.getResults().get(0).getServiceRef().equals(skus.getServiceRef())
        && envelope.getResults().get(0).getOrderItems().get(0).getItem().equals("SKU-1001"), "the order listed");
    step("list with the envelope");

    List<Order> bare = api.listOrders(null, null, "false", cargo.getServiceRef(), null).getListOrder();
    check(bare.size() == 1 && bare.get(0).getServiceRef().equals(cargo.getServiceRef()), "bare list: " + bare);
    step("list with paginate=false");

    List<Pallet> pallets = api.palletContents(skus.getServiceRef());
    check(!pallets.isEmpty() && pallets.get(0).getPalletIndex().equals("AP1"), "pallets: " + pallets);
    int units = 0;
    for (Pallet pallet : pallets) for (PalletContent content : pallet.getContents()) units += content.getQuantity();
    check(units == 24, "24 units on the pallets, not " + units);
    step("pallet contents");

    LoadPlan plan = api.loadPlan(cargo.getServiceRef());
    check(plan.getServiceRef().equals(cargo.getServiceRef()) && plan.getContainers().size() == 1, "plan: " + plan.getContainers().size());
    check(plan.getContainers().get(0).getPlacements().size() >= 2, "placements");
    int skuContainers = api.loadPlan(skus.getServiceRef()).getContainers().size();
    check(skuContainers == 1, "one 40ft for 24 cartons, not " + skuContainers + ": a count left out is not 5");
    step("load plan");

    byte[] pdf = Files.readAllBytes(api.downloadPackingInstructions("PO-" + RUN + "-1").toPath());
    check(new String(pdf, 0, 4, "ISO-8859-1").equals("%PDF"), "PDF: " + new String(pdf, 0, Math.min(8, pdf.length), "ISO-8859-1"));
    check(api.retrieveOrder(skus.getOrderId(), null).getPackingInstructionsDownloaded(), "marked downloaded");
    step("download the packing instructions (%PDF)");

    List<OrderHistoryEvent> history = api.orderHistory(skus.getOrderId());
    check(history.get(0).getType().equals("OrderSubmitted") && history.stream().anyMatch((event) -> event.getType().equals("OrderPlanned")), "history");
    step("history");

    ErrorDetail unauthorized = ErrorDetail.fromJson(refusal(() -> ordersApi("not-a-key").listOrders(null, null, null, null, null), 401));
    check(!unauthorized.getDetail().isEmpty(), "401 detail");
    step("401 with detail");

    ErrorDetail notFound = ErrorDetail.fromJson(refusal(() -> api.retrieveOrder(999_999_999, null), 404));
    check(!notFound.getDetail().isEmpty(), "404 detail");
    step("404 on retrieve");

    OrderLookupError unknown = OrderLookupError.fromJson(refusal(() -> api.palletContents("NO-SUCH-" + RUN), 400));
    check(unknown.getOrder().size() == 1, "400: " + unknown);
    step("400 under order for an unknown order");

    // ValidationError is a map of fields (additionalProperties): the client has no class for it; its Gson reads the map.
    String invalidBody = refusal(() -> api.submitOrder(
        order("PO-" + RUN + "-3", SubmitOrderRequest.TransportationModeEnum.OCEAN_FCL)
            .addOrderItemsItem(new OrderItemInput().item("SKU-1001").quantity(new OrderItemInputQuantity("1")))
            .addOrderItemsItem(new OrderItemInput().item("NO-SUCH-SKU").quantity(new OrderItemInputQuantity("1")))
            .addOrderContainersItem(new OrderContainerInput().code(OrderContainerInput.CodeEnum._40FT))), 400);
    Map<?, ?> invalid = JSON.getGson().fromJson(invalidBody, Map.class);
    List<?> rows = (List<?>) invalid.get("order_items");
    check(((Map<?, ?>) rows.get(0)).isEmpty() && ((Map<?, ?>) rows.get(1)).get("item").toString().contains("NO-SUCH-SKU"), "400: " + invalidBody);
    step("400 with field errors on an invalid submit");
  }
}
