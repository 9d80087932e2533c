/** The cache policy now lives with the other edge headers in core, where the local twin reads it too. */
export {
  cacheControlFor,
  hashedAssetsCacheControl,
  hashedAssetsPrefix,
  pagesCacheControl,
} from '../core/config/edge-headers';
