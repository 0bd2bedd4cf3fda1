// The business detail's Beneficiaries tab and the merchant detail's Customers tab (spec: tabs): the
// existing list screens, loaded only when their tab is first opened (no new code on the detail's own load).
import { lazy, Suspense } from 'react';
import { Skeleton } from '../../src/ui/skeleton.tsx';

const BeneficiariesPane = lazy(() => import('../beneficiaries/beneficiaries-pane.tsx').then((module) => ({ default: module.BeneficiariesPane })));
const CustomersPane = lazy(() => import('../customers/customers-pane.tsx').then((module) => ({ default: module.CustomersPane })));

export function BeneficiariesTab({ businessId }: { businessId: string }) {
  return (
    <Suspense fallback={<Skeleton lines={4} label="Loading the beneficiaries" />}>
      <BeneficiariesPane params={{ businessId }} search="" capability="Beneficiaries" />
    </Suspense>
  );
}

export function CustomersTab({ businessId, merchantId }: { businessId: string; merchantId: string }) {
  return (
    <Suspense fallback={<Skeleton lines={4} label="Loading the customers" />}>
      <CustomersPane params={{ businessId, merchantId }} search="" capability="Customers" />
    </Suspense>
  );
}
