import { useBlockNumber } from 'wagmi'
import { chain } from '../config'

/** The configured chain, its id and the latest block (a stalled number means the RPC is down). */
export function NetworkName() {
  const block = useBlockNumber({ watch: true })
  return (
    <div className="network">
      <span className="network-name">{chain.name}</span>
      <span className="muted">chain {chain.id}</span>
      <span className="muted">
        {block.data === undefined ? (block.isError ? 'RPC unreachable' : '…') : `block ${block.data}`}
      </span>
    </div>
  )
}
