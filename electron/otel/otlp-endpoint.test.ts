import * as semconv from "@opentelemetry/semantic-conventions";
import * as incubating from "@opentelemetry/semantic-conventions/incubating";
import { describe, expect, it } from "vitest";
import { SEMCONV, SEMCONV_VALUES } from "../../shared/otel/attribute-names.js";
import { OtlpConfigError, resolveOtlpTarget } from "./otlp-endpoint.js";

describe("resolveOtlpTarget", () => {
  it("appends /v1/traces to a base endpoint and keeps a traces URL as given", () => {
    expect(resolveOtlpTarget({ url: "http://127.0.0.1:4318" }, {})?.url).toBe(
      "http://127.0.0.1:4318/v1/traces",
    );
    expect(resolveOtlpTarget({ url: "https://otel.example.com/base/" }, {})?.url).toBe(
      "https://otel.example.com/base/v1/traces",
    );
    expect(resolveOtlpTarget({ url: "http://c:4318/v1/traces" }, {})?.url).toBe("http://c:4318/v1/traces");
  });

  it("takes the flag over the variables, the traces variable over the generic one", () => {
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://generic:4318",
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://traces:4318/custom",
    };
    expect(resolveOtlpTarget({ url: "http://flag:4318" }, env)).toMatchObject({
      url: "http://flag:4318/v1/traces",
      source: "--otlp",
    });
    expect(resolveOtlpTarget({}, env)).toMatchObject({
      url: "http://traces:4318/custom",
      source: "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    });
    expect(resolveOtlpTarget({}, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://generic:4318" })).toMatchObject({
      url: "http://generic:4318/v1/traces",
      source: "OTEL_EXPORTER_OTLP_ENDPOINT",
    });
    expect(resolveOtlpTarget({}, {})).toBeNull();
  });

  it("picks the protocol from the flag, then the variables, http/protobuf by default", () => {
    const url = "http://c:4318";
    expect(resolveOtlpTarget({ url }, {})?.protocol).toBe("http/protobuf");
    expect(resolveOtlpTarget({ url }, { OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" })?.protocol).toBe(
      "http/json",
    );
    expect(
      resolveOtlpTarget(
        { url, protocol: "http/protobuf" },
        { OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json", OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" },
      )?.protocol,
    ).toBe("http/protobuf");
  });

  it("refuses junk with a message that names the flag or variable", () => {
    const bad: Array<[Parameters<typeof resolveOtlpTarget>, RegExp]> = [
      [[{ url: "localhost:4318" }, {}], /--otlp must be an http:\/\/ or https:\/\/ URL/],
      [[{ url: "ftp://c/" }, {}], /--otlp must be an http/],
      [[{ url: "not a url" }, {}], /--otlp must be an http/],
      [[{ url: "http://user:secret@c:4318" }, {}], /must not carry credentials/],
      [[{}, { OTEL_EXPORTER_OTLP_ENDPOINT: "c:4318" }], /OTEL_EXPORTER_OTLP_ENDPOINT must be an http/],
      [[{ url: "http://c", protocol: "grpc" }, {}], /gRPC is not supported/],
      [[{ protocol: "http/json" }, {}], /--otlp-protocol needs --otlp/],
    ];
    for (const [args, message] of bad) expect(() => resolveOtlpTarget(...args)).toThrow(message);
    expect(() => resolveOtlpTarget({ url: "x" }, {})).toThrow(OtlpConfigError);
  });
});

describe("the semantic-convention names shared/otel writes", () => {
  it("are the ones @opentelemetry/semantic-conventions 1.45 defines", () => {
    expect(SEMCONV).toEqual({
      rpcSystemName: semconv.ATTR_RPC_SYSTEM_NAME,
      rpcMethod: semconv.ATTR_RPC_METHOD,
      rpcResponseStatusCode: incubating.ATTR_RPC_RESPONSE_STATUS_CODE,
      jsonrpcRequestId: incubating.ATTR_JSONRPC_REQUEST_ID,
      jsonrpcProtocolVersion: incubating.ATTR_JSONRPC_PROTOCOL_VERSION,
      errorType: semconv.ATTR_ERROR_TYPE,
      genAiOperationName: incubating.ATTR_GEN_AI_OPERATION_NAME,
      genAiConversationId: incubating.ATTR_GEN_AI_CONVERSATION_ID,
      genAiAgentName: incubating.ATTR_GEN_AI_AGENT_NAME,
    });
    expect(SEMCONV_VALUES).toEqual({
      jsonrpc: incubating.RPC_SYSTEM_NAME_VALUE_JSONRPC,
      invokeAgent: incubating.GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
    });
  });
});

describe("--otlp URLs with a query (issue 31)", () => {
  it("refuses query parameters and fragments from the flag and the variables, never echoing their values", () => {
    for (const [flag, env] of [
      [{ url: "http://h:4318/v1/traces?api_key=SEKRET" }, {}],
      [{}, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://h:4318?token=SEKRET" }],
      [{}, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://h:4318/v1/traces#k=SEKRET" }],
    ] as const) {
      let message = "";
      try {
        resolveOtlpTarget(flag, env);
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toContain("must not carry query parameters");
      expect(message).not.toContain("SEKRET");
    }
  });
});
