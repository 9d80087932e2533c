/**
 * The no-script form's path item of the OpenAPI document: its fields, its 303 to the outcome's
 * page, and its refusal pages (the HTML the route sends, core/documents/form-refusal-page.ts).
 */

import { buildFormRefusalPage } from '../../core/documents/form-refusal-page';
import {
  formContentType,
  formOutcomes,
  hasBookTicked,
  mailingListTicked,
  type FormRefusalStatus,
} from '../../core/api/form-replies';
import type { ProductRoute } from '../../core/api/catalogue/routes';
import { maxBodyBytes } from '../../core/api/request-limits';
import { allowHeader, alwaysHeaders, operationKey, ref, refusedOperations, schemaNames } from './openapi-operations';
import { requestBodySchema, requestExample } from './openapi-request-schema';
import type { JsonSchema, OpenApiOperation, OpenApiResponse } from './openapi-types';

/** The form's fields: the request's two, the checkbox and the honeypot. */
export function formBodySchema(): JsonSchema {
  const request = requestBodySchema();
  return {
    description:
      'The form as a browser sends it. `name` and `email` are checked as in the JSON routes; unknown fields are ignored, a repeated one counts once (its first value).',
    type: 'object',
    properties: {
      ...(request.properties as Record<string, JsonSchema>),
      hasBook: {
        description: `'I confirm that I have purchased the book': \`${hasBookTicked}\` when ticked (what a browser sends for the checkbox), absent otherwise.`,
        type: 'string',
        const: hasBookTicked,
      },
      mailingList: {
        description: `The reader's choice to join the author's mailing list, offered only with a mail provider: \`${mailingListTicked}\` when ticked, absent otherwise. Only then is the request handed to the provider.`,
        type: 'string',
        const: mailingListTicked,
      },
      website: {
        description:
          'The honeypot: an input people never see. When it holds anything but spaces, the route answers as on success and stores and sends nothing.',
        type: 'string',
      },
    },
    required: ['name', 'email'],
  };
}

const formExample = { name: requestExample.name, email: requestExample.email, hasBook: hasBookTicked, website: '' };

/**
 * The refusal page's title names the book, whose title and subtitle are the author's
 * (content/book.yaml): the examples show a fixed stand-in for them, so a copy edit changes no generated file.
 */
const exampleSiteTitle = "The Book's Title: The Book's Subtitle";

/** A refusal page, by the status's causes: the HTML the route sends (with the book's own title), for each. */
export function formRefusalResponse(
  status: FormRefusalStatus,
  route: Pick<ProductRoute<string>, 'method'>,
): OpenApiResponse {
  return {
    description: `${status.description} The body is a small HTML page that says why, with a link back to the form.`,
    headers: { ...alwaysHeaders(), ...(status.status === 405 && { Allow: allowHeader(route) }) },
    content: {
      'text/html': {
        schema: { type: 'string' },
        examples: Object.fromEntries(
          status.causes.map((cause) => [
            cause.name,
            { summary: cause.when, value: buildFormRefusalPage(cause.message, exampleSiteTitle) },
          ]),
        ),
      },
    },
  };
}

export function formPathItem(
  route: ProductRoute<string>,
  refusalStatuses: readonly FormRefusalStatus[],
): Record<string, OpenApiOperation> {
  const refusals = refusalStatuses.filter((status) => status.status !== 405);
  const { operationId, summary, description } = route.openApi;
  const operation: OpenApiOperation = {
    operationId,
    summary,
    description,
    requestBody: {
      description: `A form (\`Content-Type: ${formContentType}\`, optionally with \`charset=utf-8\`), at most ${
        maxBodyBytes / 1024
      } KB (${maxBodyBytes} bytes).`,
      required: true,
      content: { [formContentType]: { schema: ref('schemas', schemaNames.form), example: formExample } },
    },
    responses: Object.fromEntries<OpenApiResponse>([
      [
        '303',
        {
          description: `The request was understood; \`Location\` is the page of its outcome. ${Object.values(
            formOutcomes,
          )
            .map((outcome) => `\`${outcome.path}\`: ${outcome.when}`)
            .join(' ')}`,
          headers: { ...alwaysHeaders(), Location: ref('headers', 'FormResultLocation') },
        } satisfies OpenApiResponse,
      ],
      ...refusals.map((status) => [String(status.status), formRefusalResponse(status, route)] as const),
    ]),
  };
  return { [operationKey(route)]: operation, ...refusedOperations(route, 'FormMethodNotAllowed') };
}
