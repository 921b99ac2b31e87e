import { describe, expect, it } from "vitest";
import { hideSecretsInArgv, hideSecretsInText, isSecretName } from "./secret-shapes.js";

const hide = (s: string) => `<${s.length}>`;

describe("secret shapes", () => {
  it("names a secret whatever its case and separators", () => {
    for (const name of [
      "apiKey",
      "API_KEY",
      "x-api-key",
      "Api.Key",
      "Proxy-Authorization",
      "GITHUB_TOKEN",
      "auth",
    ])
      expect(isSecretName(name), name).toBe(true);
    for (const name of ["idempotencyKey", "sessionId", "authMethods", "author", "messageId", "cwd", "key"])
      expect(isSecretName(name), name).toBe(false);
  });

  it("hides URL userinfo, query values, key=value fragments; keeps the rest and trailing punctuation", () => {
    expect(hideSecretsInText("see https://u:pw@h.example:8/a/b?x=1&flag&y=#L10.", hide)).toBe(
      "see https://<4>@h.example:8/a/b?x=<1>&<4>&y=#L10.",
    );
    expect(hideSecretsInText("(wss://h/acp#access_token=abc&t=1)", hide)).toBe(
      "(wss://h/acp#access_token=<3>&t=<1>)",
    );
    expect(hideSecretsInText("file:///x/a.ts and https://h/p", hide)).toBe("file:///x/a.ts and https://h/p");
  });

  it("hides Bearer and Basic credentials, and leaves short words alone", () => {
    expect(hideSecretsInText("Authorization: Bearer abc.def-123_456", hide)).toBe(
      "Authorization: Bearer <15>",
    );
    expect(hideSecretsInText("bearer  abcdefgh1", hide)).toBe("bearer  <9>");
    expect(hideSecretsInText("Basic dXNlcjpwYXNz", hide)).toBe("Basic <12>");
    expect(hideSecretsInText("a Bearer token", hide)).toBe("a Bearer token");
  });

  it("hides secret options and assignments of an argv", () => {
    expect(
      hideSecretsInArgv(
        [
          "agent",
          "--api-key=k1",
          "--token",
          "t2",
          "-password",
          "p3",
          "API_TOKEN=e4",
          "--model",
          "m",
          "https://u:p@h",
        ],
        hide,
      ),
    ).toEqual([
      "agent",
      "--api-key=<2>",
      "--token",
      "<2>",
      "-password",
      "<2>",
      "API_TOKEN=<2>",
      "--model",
      "m",
      "https://<3>@h",
    ]);
  });
});

describe("secret shapes missed before issue 31", () => {
  it("hides a lowercase or mixed-case basic credential that decodes to user:password", () => {
    expect(hideSecretsInText("authorization: basic dXNlcjpwYXNz", hide)).toBe("authorization: basic <12>");
    expect(hideSecretsInText("BASIC dXNlcjpwYXNz", hide)).toBe("BASIC <12>");
    expect(hideSecretsInText("a basic understanding", hide)).toBe("a basic understanding");
  });

  it("hides a quoted Bearer token", () => {
    expect(hideSecretsInText(`Bearer "abc.def-123_456"`, hide)).toBe(`Bearer "<15>"`);
    expect(hideSecretsInText(`bearer: 'abcdefgh12'`, hide)).toBe(`bearer: '<10>'`);
    expect(hideSecretsInText(`{"Bearer":"abcdefgh12"}`, hide)).not.toContain("abcdefgh12");
    expect(hideSecretsInText(`token=Bearer \\"abcdefgh12\\"`, hide)).not.toContain("abcdefgh12");
  });

  it("hides the query values of a relative URL", () => {
    expect(hideSecretsInText("redirected to /callback?code=abc123&state=xy.", hide)).toBe(
      "redirected to /callback?code=<6>&state=<2>.",
    );
    expect(hideSecretsInText("cb?code=secret#token=t", hide)).toBe("cb?code=<6>#token=<1>");
    expect(hideSecretsInText("what? really?", hide)).toBe("what? really?");
  });
});
