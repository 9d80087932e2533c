// dynalite and s3rver ship no type declarations: just the parts the local stack uses.

declare module 'dynalite' {
  import type { Server } from 'node:http';

  interface DynaliteOptions {
    /** How long a new table stays CREATING; 0 makes it ACTIVE at once. */
    createTableMs?: number;
    deleteTableMs?: number;
    updateTableMs?: number;
    /** A LevelDB directory; in memory when absent. */
    path?: string;
  }

  function dynalite(options?: DynaliteOptions): Server;
  export default dynalite;
}

declare module 's3rver' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface S3rverOptions {
    directory?: string;
    silent?: boolean;
    resetOnClose?: boolean;
    vhostBuckets?: boolean;
  }

  class S3rver {
    constructor(options?: S3rverOptions);
    /** The Koa request listener, for an HTTP server we create (and whose errors we see). */
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
  }
  export default S3rver;
}
