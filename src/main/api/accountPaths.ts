/** interface.md "B": `index_endpoint`, the path of the indexing endpoint a search result points at. */
export const INDEX_ENDPOINT = '/v1/index'
