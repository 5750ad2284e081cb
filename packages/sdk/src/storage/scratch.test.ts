import { test } from 'vitest'
import { computeCid, computeDirectoryCid } from './computeCid.js'
const enc = (s: string) => new TextEncoder().encode(s)
test('scratch', async () => {
  console.log(await computeCid(new Uint8Array()))
  console.log(await computeCid(enc('hello world')))
  console.log(await computeDirectoryCid([]))
  console.log(await computeDirectoryCid([
    { path: 'hello', content: enc('hello\n') },
    { path: 'ipfs/ipns/bar', content: enc('text-file-content\n') },
    { path: 'api/file.txt', content: enc('I am a txt file\n') },
    { path: 'ipfs/file.txt', content: enc('I am a txt file\n') },
  ]), 'want bafybeiht6dtwk3les7vqm6ibpvz6qpohidvlshsfyr7l5mpysdw2vmbbhe')
})
