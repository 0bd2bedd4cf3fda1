// Value sets: the ones the server serves under /enumerations and the ones fixed locally (context doc, section 4).

export const enumerationNames = ['countries', 'currencies', 'order-line-types', 'payment-methods', 'payment-statuses', 'ticket-types'] as const;
export type EnumerationName = (typeof enumerationNames)[number];

export const orderLineTypes = ['digitalItem', 'discount', 'giftCard', 'paymentCost', 'physicalItem', 'shippingCost', 'shopCredit'] as const;
export const paymentMethods = [
  'afterPay',
  'applePay',
  'bancontact',
  'card',
  'directDebit',
  'googlePay',
  'ideal',
  'klarnaPayLater',
  'klarnaPayNow',
  'klarnaSliceIt',
  'payPal',
  'samsungPay',
  'sepaBanktransfer',
  'clickToPay',
  'wallet',
] as const;
export type PaymentMethod = (typeof paymentMethods)[number];
export const paymentStatuses = [
  'blocked',
  'cancelled',
  'commissioned',
  'declined',
  'expired',
  'failed',
  'paid',
  'pending',
  'rejected',
  'reserved',
  'verified',
] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];
export const ticketTypes = ['bug', 'dispute', 'featureRequest', 'general', 'informationRequest'] as const;
export const channels = ['Gateway', 'Acquiring', 'Chp'] as const;
export const beneficiaryStatuses = ['Approved', 'Referred', 'Rejected'] as const;
export const ticketStatuses = ['Open', 'InProgress', 'OnHold', 'Closed'] as const;
export const ticketPriorities = ['Unknown', 'Low', 'Medium', 'High'] as const;
export const salutations = ['Mr.', 'Mrs.', 'Miss.', 'Dr.', 'Ms.'] as const;
export const phoneNumberTypes = ['Unknown', 'Mobile', 'Fixed'] as const;

/** ISO 3166-1 alpha-2 codes; names come from Intl.DisplayNames in en-GB. */
export const countryCodes = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ ' +
  'DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT ' +
  'JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG ' +
  'NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH ' +
  'TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ');
