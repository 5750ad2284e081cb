import { useConnection, useSwitchChain } from 'wagmi'
import { chain } from '../config'
import { ErrorAlert } from './ErrorAlert'

/** A browser wallet on another chain cannot send to the dashboard's: offer to switch. */
export function WrongChainNotice() {
  const connection = useConnection()
  const switchChain = useSwitchChain()
  if (connection.chainId === undefined || connection.chainId === chain.id) return null
  return (
    <div className="wrong-chain">
      <span>Wallet on chain {connection.chainId}</span>
      <button
        type="button"
        disabled={switchChain.isPending}
        onClick={() => switchChain.mutate({ chainId: chain.id })}
      >
        Switch to {chain.name}
      </button>
      <ErrorAlert error={switchChain.error} />
    </div>
  )
}
