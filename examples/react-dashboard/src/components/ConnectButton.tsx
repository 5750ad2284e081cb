import { localAccount } from '@gridforge/react-hooks'
import { useConnect, useConnection, useConnectors, useDisconnect } from 'wagmi'
import { ErrorAlert } from './ErrorAlert'
import { WrongChainNotice } from './WrongChainNotice'

/** Connects the development account or a browser wallet; shows the connected address. */
export function ConnectButton() {
  const connection = useConnection()
  const connectors = useConnectors()
  const connect = useConnect()
  const disconnect = useDisconnect()

  if (connection.status === 'connected') {
    return (
      <div className="connection">
        <WrongChainNotice />
        <code className="address" data-testid="account-address" title={connection.connector.name}>
          {connection.address}
        </code>
        <button type="button" data-testid="disconnect" onClick={() => disconnect.mutate({})}>
          Disconnect
        </button>
      </div>
    )
  }

  const devConnector = connectors.find((connector) => connector.type === localAccount.type)
  const injectedConnector = hasInjectedWallet() ? connectors.find((c) => c.id === 'injected') : undefined
  const busy = connect.isPending || connection.status === 'connecting' || connection.status === 'reconnecting'
  return (
    <div className="connection">
      {devConnector && (
        <button
          type="button"
          data-testid="connect-dev"
          disabled={busy}
          onClick={() => connect.mutate({ connector: devConnector })}
        >
          Use development account
        </button>
      )}
      {injectedConnector && (
        <button
          type="button"
          data-testid="connect-injected"
          disabled={busy}
          onClick={() => connect.mutate({ connector: injectedConnector })}
        >
          Connect browser wallet
        </button>
      )}
      {!devConnector && !injectedConnector && <span className="muted">No wallet found</span>}
      <ErrorAlert error={connect.error} />
    </div>
  )
}

function hasInjectedWallet(): boolean {
  return typeof window !== 'undefined' && 'ethereum' in window && window.ethereum !== undefined
}
