/** The security headers now live with the other edge headers in core, where the local twin reads them too. */
export {
  contentSecurityPolicy,
  permissionsPolicy,
  referrerPolicy,
  securityHeaders,
  strictTransportSecurity,
} from '../core/config/edge-headers';
