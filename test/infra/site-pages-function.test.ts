/**
 * The CloudFront Function's code, run as CloudFront runs it (a `handler(event)` returning the
 * request), in a fresh V8 context; and its place in the site's distribution.
 */

import vm from 'node:vm';
import type { Template } from 'aws-cdk-lib/assertions';
import { sitePages } from '../../core/site-pages';
import { sitePagesFunctionCode } from '../../infra/site-pages-function';
import { siteInBareStack } from './support/bare-stack';
import { resourceByPrefix } from './support/synth';

type Handler = (event: { request: { uri: string; method: string } }) => { uri: string };

function handlerOf(code: string): Handler {
  const context = vm.createContext({});
  vm.runInContext(code, context);
  return context.handler as Handler;
}

const uriAfter = (uri: string, code = sitePagesFunctionCode()) =>
  handlerOf(code)({ request: { uri, method: 'GET' } }).uri;

test('/privacy is served from privacy.html', () => {
  expect(uriAfter('/privacy')).toBe('/privacy.html');
});

test('every listed page path but / maps to its file; / is the default root object', () => {
  for (const page of sitePages) expect(uriAfter(page.path)).toBe(page.path === '/' ? '/' : `/${page.file}`);
});

test('an unknown path passes unchanged, so it still ends on the not-found page', () => {
  for (const uri of ['/privacy/', '/Privacy', '/nope', '/assets/index-3f2a1b9c.js', '/constructor', '/__proto__']) {
    expect(uriAfter(uri)).toBe(uri);
  }
});

test('a page added to the list is mapped without touching the function', () => {
  const code = sitePagesFunctionCode([...sitePages, { path: '/results/day-30', file: 'results-day-30.html' }]);
  expect(uriAfter('/results/day-30', code)).toBe('/results-day-30.html');
});

describe('in the site construct', () => {
  let template: Template;
  beforeAll(() => {
    ({ template } = siteInBareStack());
  });

  test('the function holds the generated code on the JavaScript 2.0 runtime', () => {
    const { resource } = resourceByPrefix(template, 'AWS::CloudFront::Function', 'SitePagePaths');
    expect(resource.Properties).toMatchObject({
      AutoPublish: true,
      FunctionCode: sitePagesFunctionCode(),
      FunctionConfig: { Runtime: 'cloudfront-js-2.0' },
    });
  });

  test('it runs on viewer requests of the default behaviour only, never on the API', () => {
    const { resource } = resourceByPrefix(template, 'AWS::CloudFront::Distribution', 'SiteDistribution');
    const config = resource.Properties.DistributionConfig as {
      DefaultCacheBehavior: { FunctionAssociations?: Array<Record<string, unknown>> };
      CacheBehaviors: Array<{ FunctionAssociations?: unknown }>;
    };
    expect(config.DefaultCacheBehavior.FunctionAssociations).toEqual([
      { EventType: 'viewer-request', FunctionARN: expect.objectContaining({ 'Fn::GetAtt': expect.any(Array) }) },
    ]);
    for (const behavior of config.CacheBehaviors) expect(behavior.FunctionAssociations ?? []).toEqual([]);
  });
});
