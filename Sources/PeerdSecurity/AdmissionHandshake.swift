package import Crypto
package import PeerdModel

/// The membership half of connecting to a peer, after TLS: offers, proofs and the decision of
/// proto/SECURITY.md, as a plain value. The transport feeds it the first two frames and carries
/// out its actions; it never sees JSON.
package struct AdmissionHandshake: Sendable {
    /// Who is on each end of the TLS session: ids are fingerprints of the certificates' keys.
    package struct Endpoints: Sendable {
        package var local: PeerID
        package var localCertificate: [UInt8]
        package var remote: PeerID
        package var remoteCertificate: [UInt8]

        package init(local: PeerID, localCertificate: [UInt8], remote: PeerID, remoteCertificate: [UInt8]) {
            self.local = local
            self.localCertificate = localCertificate
            self.remote = remote
            self.remoteCertificate = remoteCertificate
        }
    }

    package enum Action: Sendable, Equatable {
        case send([UInt8])
        /// The peer proved membership (or already had it); `via` is set when it is new and must be pinned.
        case admit(via: TrustList.Via?, invite: Int?)
        /// The peer is the inviter of a code this side is joining with: admitted for this session, and
        /// pinned (`invite`) only once its hello shows that it admitted this side too. A refused
        /// join trusts nobody.
        case admitInviter
        /// Send this refusal record and close.
        case refuse(AdmissionRefusal)
        /// The peer proved a code of ours that was used or has expired, or its key was removed from
        /// the group: send it this refusal, which says which, when and by whom, and close.
        case refuseSpentInvite(SpentInvite)
    }

    enum State: Sendable {
        case awaitingOffer
        case awaitingProof(remoteNonce: [UInt8])
        case done
    }

    package let endpoints: Endpoints
    package let policy: AdmissionPolicy
    /// The id this side dialed expecting, if any.
    package let expected: PeerID?
    private let nonce: [UInt8]
    private var state = State.awaitingOffer

    package init(endpoints: Endpoints, policy: AdmissionPolicy, expected: PeerID?, nonce: [UInt8]? = nil) {
        self.endpoints = endpoints
        self.policy = policy
        self.expected = expected
        self.nonce = nonce ?? (0..<32).map { _ in UInt8.random(in: 0...255) }
    }

    /// Our offer: sent at once.
    package func offer() -> [UInt8] { AdmissionRecord.offer(nonce: nonce) }

    /// The method of the proof this side gives (`invite` when it joins with a code of the peer's).
    package var proofMethod: AdmissionMethod { policy.proofKey(for: endpoints.remote).0 }

    /// One of the first two frames from the other side.
    package mutating func received(_ frame: [UInt8]) -> [Action] {
        switch state {
        case .awaitingOffer:
            guard let remoteNonce = AdmissionRecord.nonce(ofOffer: frame) else {
                state = .done
                return [.refuse(.notAMember)]
            }
            state = .awaitingProof(remoteNonce: remoteNonce)
            let (method, key) = policy.proofKey(for: endpoints.remote)
            let transcript = AdmissionMAC.Transcript(
                method: method,
                prover: endpoints.local,
                verifier: endpoints.remote,
                proverCertificate: endpoints.localCertificate,
                verifierCertificate: endpoints.remoteCertificate,
                proverNonce: nonce,
                verifierNonce: remoteNonce
            )
            let mac = key.map { AdmissionMAC.compute(key: $0, transcript) } ?? [UInt8](repeating: 0, count: 32)
            return [.send(AdmissionRecord.proof(method: method, mac: mac))]
        case .awaitingProof(let remoteNonce):
            state = .done
            guard let (method, mac) = AdmissionRecord.parseProof(frame) else { return [.refuse(.notAMember)] }
            return [decide(method: method, mac: mac, remoteNonce: remoteNonce)]
        case .done:
            return []
        }
    }

    private func decide(method: AdmissionMethod, mac: [UInt8], remoteNonce: [UInt8]) -> Action {
        let remote = endpoints.remote
        if remote == endpoints.local { return .refuse(.selfConnection) }
        if !Fingerprint.hasP256Key(certificateDER: endpoints.remoteCertificate) { return .refuse(.unsupportedKey) }
        if let removal = policy.removed[remote] { return .refuseSpentInvite(removal) }
        if policy.revoked.contains(remote) { return .refuse(.revoked) }
        if let expected, expected != remote { return .refuse(.keyMismatch) }
        if policy.members.contains(remote) { return .admit(via: nil, invite: nil) }
        let transcript = AdmissionMAC.Transcript(
            method: method,
            prover: remote,
            verifier: endpoints.local,
            proverCertificate: endpoints.remoteCertificate,
            verifierCertificate: endpoints.localCertificate,
            proverNonce: remoteNonce,
            verifierNonce: nonce
        )
        func verifies(_ key: SymmetricKey) -> Bool { AdmissionMAC.verify(mac, key: key, transcript) }
        switch method {
        case .group:
            if let key = policy.groupKey, policy.groupSecretAdmits, verifies(key) {
                return .admit(via: .groupSecret, invite: nil)
            }
        case .invite:
            if let invite = policy.invites.first(where: { verifies($0.key) }) {
                return .admit(via: .invite, invite: invite.id)
            }
            if let spent = policy.spentInvites.first(where: { verifies($0.key) }) {
                return .refuseSpentInvite(spent.invite)
            }
        case .none:
            break
        }
        // We hold a code from this very peer: its key is the one the code named.
        if policy.joins[remote] != nil { return .admitInviter }
        return .refuse(.notAMember)
    }
}

/// What admission needs to know of the trust list and the secrets, at the moment it decides.
package struct AdmissionPolicy: Sendable {
    package struct Invite: Sendable {
        package var id: Int
        package var key: SymmetricKey

        package init(id: Int, key: SymmetricKey) {
            self.id = id
            self.key = key
        }
    }

    /// An invite this daemon made that admits nobody any more: its key, to recognise a proof made
    /// with it, and what became of it.
    package struct Spent: Sendable {
        package var key: SymmetricKey
        package var invite: SpentInvite

        package init(key: SymmetricKey, invite: SpentInvite) {
            self.key = key
            self.invite = invite
        }
    }

    package var members: Set<PeerID>
    package var revoked: Set<PeerID>
    /// Keys removed from the group, each with who removed it and when (told to it in its refusal).
    package var removed: [PeerID: SpentInvite] = [:]
    package var groupKey: SymmetricKey?
    /// False once the group's log holds a removal and no newer group secret than this daemon's:
    /// this daemon still proves with its group key, but admits nobody new by it.
    package var groupSecretAdmits = true
    /// Unexpired, unused invites this daemon made.
    package var invites: [Invite]
    /// Invites this daemon made that were used or expired lately (a bounded few), so that a joiner
    /// who brings one is told which, not just refused.
    package var spentInvites: [Spent]
    /// Codes this daemon is joining with, by inviter.
    package var joins: [PeerID: SymmetricKey]

    package init(
        members: Set<PeerID> = [],
        revoked: Set<PeerID> = [],
        groupKey: SymmetricKey? = nil,
        invites: [Invite] = [],
        spentInvites: [Spent] = [],
        joins: [PeerID: SymmetricKey] = [:]
    ) {
        self.members = members
        self.revoked = revoked
        self.groupKey = groupKey
        self.invites = invites
        self.spentInvites = spentInvites
        self.joins = joins
    }

    /// The proof to give `verifier`: its invite if we are joining with one of its codes, else the
    /// group secret, else none.
    func proofKey(for verifier: PeerID) -> (AdmissionMethod, SymmetricKey?) {
        if let key = joins[verifier] { return (.invite, key) }
        if let key = groupKey { return (.group, key) }
        return (.none, nil)
    }
}

/// The MAC of a proof, bound to both certificates and both nonces.
package enum AdmissionMAC {
    static let label: [UInt8] = Array("peerd admission v1".utf8)

    /// What one side's proof covers, from the prover's point of view.
    package struct Transcript: Sendable {
        package var method: AdmissionMethod
        package var prover: PeerID
        package var verifier: PeerID
        package var proverCertificate: [UInt8]
        package var verifierCertificate: [UInt8]
        package var proverNonce: [UInt8]
        package var verifierNonce: [UInt8]

        package init(
            method: AdmissionMethod,
            prover: PeerID,
            verifier: PeerID,
            proverCertificate: [UInt8],
            verifierCertificate: [UInt8],
            proverNonce: [UInt8],
            verifierNonce: [UInt8]
        ) {
            self.method = method
            self.prover = prover
            self.verifier = verifier
            self.proverCertificate = proverCertificate
            self.verifierCertificate = verifierCertificate
            self.proverNonce = proverNonce
            self.verifierNonce = verifierNonce
        }

        var bytes: [UInt8] {
            label + [method.rawValue] + prover.bytes + verifier.bytes
                + Array(SHA256.hash(data: proverCertificate)) + Array(SHA256.hash(data: verifierCertificate))
                + proverNonce + verifierNonce
        }
    }

    package static func compute(key: SymmetricKey, _ transcript: Transcript) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: transcript.bytes, using: key))
    }

    /// Constant-time comparison, by CryptoKit's `isValidAuthenticationCode`.
    package static func verify(_ mac: [UInt8], key: SymmetricKey, _ transcript: Transcript) -> Bool {
        HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: transcript.bytes, using: key)
    }

    /// The key a secret gives for one method: HKDF-SHA256 with a salt per method.
    package static func key(secret: [UInt8], salt: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: secret),
            salt: Array(salt.utf8),
            info: Array("admission".utf8),
            outputByteCount: 32
        )
    }
}

extension PeerID {
    /// The raw bytes of the hex id.
    package var bytes: [UInt8] {
        var result: [UInt8] = []
        var iterator = rawValue.utf8.makeIterator()
        while let high = iterator.next(), let low = iterator.next() {
            result.append(Self.nibble(high) << 4 | Self.nibble(low))
        }
        return result
    }

    package init?(bytes: some Collection<UInt8>) {
        self.init(bytes.map { Fingerprint.hex($0) }.joined())
    }

    private static func nibble(_ c: UInt8) -> UInt8 { c <= 0x39 ? c - 0x30 : c - 0x61 + 10 }
}
