// A partner's business and merchant: the business and merchant detail screens of panes/business, shown
// in the partner's frame: the route stays under /partners/{id}/…, so the breadcrumb reads Partners › partner ›
// business, and the merchants open under the same frame. A line of links leads back to the partner and on to the
// business's transactions within the partner.
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { businessQueries } from '../../src/api/configuration-queries.ts';
import type { PaneProps } from '../../src/state/pane-scope.tsx';
import { BusinessDetailPane } from '../business/business-detail-pane.tsx';
import { MerchantDetailPane } from '../business/merchant-detail-pane.tsx';
import { partnerBusinessPath, partnerPath } from './partner-queries.ts';
import './partners.css';

function PartnerFrameLinks({ partnerId, businessId }: { partnerId: string; businessId: string }) {
  return (
    <nav className="partner-frame-nav" aria-label="Partner frame">
      <a href={partnerPath(partnerId)}>Back to partner {partnerId}</a>
      <a href={partnerBusinessPath(partnerId, businessId)}>Business {businessId}</a>
      <a href={`${partnerBusinessPath(partnerId, businessId)}/transactions`}>Transactions of this business</a>
    </nav>
  );
}

/** The frame holds only the partner's own businesses: another one (an internal user editing the address) is not found here. */
function PartnerFrame({ params, children }: { params: PaneProps['params']; children: ReactNode }) {
  const partnerId = params.partnerId ?? '';
  const businessId = params.businessId ?? '';
  const business = useQuery(businessQueries.detail(businessId));
  if (business.data && business.data.partnerId !== partnerId) {
    return (
      <div className="record-pane">
        <h1>Business {businessId}</h1>
        <p role="alert">The requested record was not found.</p>
      </div>
    );
  }
  return (
    <>
      <PartnerFrameLinks partnerId={partnerId} businessId={businessId} />
      {children}
    </>
  );
}

export function PartnerBusinessPane(props: PaneProps) {
  return (
    <PartnerFrame params={props.params}>
      <BusinessDetailPane {...props} />
    </PartnerFrame>
  );
}

export function PartnerMerchantPane(props: PaneProps) {
  return (
    <PartnerFrame params={props.params}>
      <MerchantDetailPane {...props} />
    </PartnerFrame>
  );
}
