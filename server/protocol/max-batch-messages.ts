/**
 * The most messages of one JSON-RPC batch that are classified one by one. The SDK servers refuse a
 * larger batch whole ("Batch must not exceed 100"); past it, a batch is counted, and under a cut
 * refused, as one message (reason `batch-too-large`), so a request's cost to the sidecar, and the
 * size of a refusal, stay in proportion to what a server would do with it.
 */
export const MAX_BATCH_MESSAGES = 100;
