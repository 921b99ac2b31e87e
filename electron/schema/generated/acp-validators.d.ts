// Types of acp-validators.js, which `npm run build` (electron/tools/build/build-schema-validators.mjs) generates.
import type { ValidateFunction } from "ajv/dist/2020.js";

/** The SDK's schema of each version (v2 with the RFD's `idempotencyKey`), `description` texts dropped. */
export declare const schemaRoots: Readonly<Record<1 | 2, Readonly<Record<string, unknown>>>>;

/** Per version, the compiled validator of every `$defs` entry and every `anyOf`/`oneOf` branch, by JSON pointer. */
export declare const validatorsByPointer: Readonly<Record<1 | 2, Readonly<Record<string, ValidateFunction>>>>;
