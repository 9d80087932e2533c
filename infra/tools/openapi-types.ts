/** The parts of an OpenAPI 3.1 document that `openapi-document.ts` writes: plain data, typed. */

export type JsonSchema = { readonly [keyword: string]: unknown };

export interface OpenApiHeader {
  readonly description: string;
  readonly required: boolean;
  readonly schema: JsonSchema;
}

export interface OpenApiExample {
  readonly summary: string;
  readonly value: unknown;
}

export interface OpenApiMediaType {
  readonly schema: JsonSchema;
  readonly example?: unknown;
  readonly examples?: Readonly<Record<string, OpenApiExample>>;
}

/** A type, not an interface, so that it is also a `JsonSchema`. */
export type OpenApiReference = { readonly $ref: string };

export interface OpenApiResponse {
  readonly description: string;
  readonly headers: Readonly<Record<string, OpenApiHeader | OpenApiReference>>;
  /** By media type: `application/json` for the JSON routes, `text/html` for the form route's pages; none for a redirect. */
  readonly content?: Readonly<Record<string, OpenApiMediaType>>;
}

/** A request header the operation reads. */
export interface OpenApiParameter {
  readonly name: string;
  readonly in: 'header';
  readonly description: string;
  readonly required: boolean;
  readonly schema: JsonSchema;
}

export interface OpenApiOperation {
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
  readonly parameters?: readonly OpenApiParameter[];
  readonly requestBody?: {
    readonly description: string;
    readonly required: true;
    readonly content: Readonly<Record<string, OpenApiMediaType>>;
  };
  readonly responses: Readonly<Record<string, OpenApiResponse | OpenApiReference>>;
}

export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: { readonly title: string; readonly version: string; readonly description: string };
  readonly servers: readonly { readonly url: string; readonly description: string }[];
  readonly paths: Readonly<Record<string, Readonly<Record<string, OpenApiOperation>>>>;
  readonly components: {
    readonly schemas: Readonly<Record<string, JsonSchema>>;
    readonly headers: Readonly<Record<string, OpenApiHeader>>;
    readonly responses: Readonly<Record<string, OpenApiResponse>>;
  };
}
