// The one egress path: every fetch of a caller-supplied URL, from any endpoint or worker, goes through here.
export { decodeBody, type DecodedText } from './charset-decoding';
export { assertPublicDestination } from './destination-guard';
export { egressPolicyFromConfig, isAddressAllowed, type EgressPolicy } from './egress-policy';
export { createEgressProxy, egressRefusalHeader, type EgressProxy } from './egress-proxy';
export { FetchError, type FetchErrorCode } from './fetch-error';
export { allContentKinds, type ContentKind } from './content-kind';
export { OperatorEndpoint, type HostResolver, type OperatorEndpointOptions } from './operator-endpoint';
export { parsePublicUrl } from './public-url';
export { isReturnableUrl } from './returnable-url';
export {
  defaultMaxBytes,
  defaultUserAgent,
  maxRedirects,
  safeFetch,
  type FetchedResource,
  type SafeFetchOptions,
} from './safe-fetch';
export { safeRequest, type SafeRequestMethod, type SafeRequestOptions, type SafeResponse } from './safe-request';
export { safeRequestStream, type SafeStreamingResponse } from './safe-request-stream';
export { startFixtureServer, type FixtureRoutes, type FixtureServer } from './testing/fixture-server';
