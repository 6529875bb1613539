// s3rver ships no types; the tests use only its constructor, run() and close().
declare module 's3rver' {
  export default class S3rver {
    constructor(options: Record<string, unknown>);
    run(): Promise<import('node:net').AddressInfo>;
    close(): Promise<void>;
  }
}
