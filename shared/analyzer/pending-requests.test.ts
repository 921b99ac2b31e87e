import { describe, expect, it } from "vitest";
import { type Pending, PendingRequests } from "./pending-requests.js";
import type { RequestRow } from "./timeline-model.js";

/** A pending request whose row is told apart by `name` (only identity matters here). */
function req(name: string): Pending {
  return { kind: "request", row: { method: name } as unknown as RequestRow };
}
const names = (ps: Pending[]) => ps.map((p) => (p.kind === "request" ? p.row.method : "prompt"));

describe("PendingRequests", () => {
  it("keeps (connection, direction, id) apart, a string id from the same number", () => {
    const book = new PendingRequests();
    book.add(1, "client->agent", 1, req("n1"));
    book.add(1, "client->agent", "1", req("s1"));
    book.add(1, "agent->client", 1, req("back1"));
    book.add(2, "client->agent", 1, req("conn2"));
    expect(names([book.get(1, "client->agent", "1") as Pending])).toEqual(["s1"]);
    expect(names([book.take(1, "client->agent", 1) as Pending])).toEqual(["n1"]);
    expect(book.take(1, "client->agent", 1)).toBeUndefined();
    expect(names([book.take(1, "agent->client", 1) as Pending])).toEqual(["back1"]);
    expect(names([book.get(2, "client->agent", 1) as Pending])).toEqual(["conn2"]);
    expect(book.get(3, "client->agent", 1)).toBeUndefined();
  });

  it("gives a closing connection's requests back in the order first registered, both directions mixed, keeping those named", () => {
    const book = new PendingRequests();
    book.add(1, "client->agent", 1, req("a"));
    book.add(1, "agent->client", 0, req("b"));
    book.add(1, "client->agent", 2, req("c"));
    book.add(1, "client->agent", 3, req("d"));
    book.add(1, "agent->client", "x", req("e"));
    book.add(2, "client->agent", 9, req("other"));
    // An id reused while pending replaces the request in its place; one taken and added again goes last.
    book.add(1, "client->agent", 1, req("a2"));
    book.take(1, "client->agent", 2);
    book.add(1, "client->agent", 2, req("c2"));
    const lost = book.takeConnection(1, [
      { dir: "client->agent", id: 3 },
      { dir: "agent->client", id: "0" },
    ]);
    expect(names(lost)).toEqual(["a2", "b", "e", "c2"]);
    expect(names([book.get(1, "client->agent", 3) as Pending])).toEqual(["d"]);
    expect(names(book.takeConnection(1))).toEqual(["d"]);
    expect(book.takeConnection(1)).toEqual([]);
    expect(names(book.takeConnection(2))).toEqual(["other"]);
  });
});
