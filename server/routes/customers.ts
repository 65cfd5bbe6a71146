import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../plugins/deps.ts';
import type { Customer } from '../store/customers.ts';
import { notFound } from '../domain/refusals.ts';
import { failures } from '../schemas/envelope.ts';
import { cursorFields, pageStart } from '../services/cursors.ts';
import {
  AddCustomerBody,
  CustomerAnswer,
  CustomerGetQuery,
  CustomerListAnswer,
  CustomerListQuery,
  CustomerParams,
} from '../schemas/customers.ts';
import { addCustomer } from '../services/customers.ts';
import { writeWithReceipt } from './shopper-receipts.ts';
import { chargeCustomer } from '../services/customer-charges.ts';
import { ChargeCustomerAnswer, ChargeCustomerBody } from '../schemas/payments.ts';
import { merchantByKey } from '../services/merchant-access.ts';

const tags = ['Customers'];
const asData = (c: Customer) => ({ customer_email: c.email, customer_id: c.id, customer_phone: c.phone });

export const customerRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { clock, config }) => {
  app.post(
    '/customers/add',
    {
      schema: {
        operationId: 'addCustomer',
        tags,
        summary: 'Store a customer of a merchant',
        body: AddCustomerBody,
        response: { 200: CustomerAnswer, ...failures },
      },
    },
    async (request) => {
      const added = await addCustomer(request.unit.store, request.client.id, request.body, clock.now());
      return request.unit.write(added.change, {
        result: true,
        message: 'Customer created.',
        data: asData(added.result),
      });
    },
  );

  app.get(
    '/customers',
    {
      schema: {
        operationId: 'listCustomers',
        tags,
        summary: "List a merchant's customers, newest first (fields in the JSON body or the query string)",
        querystring: CustomerListQuery,
        response: { 200: CustomerListAnswer, ...failures },
      },
    },
    async (request) => {
      const { merchant_key, page, perPage, cursor } = request.query;
      const merchant = await merchantByKey(request.unit.store, request.client.id, merchant_key);
      const start = pageStart(cursor, page, perPage);
      const listed = await request.unit.store.customers.page(merchant.id, perPage, start);
      const { items, total: totalCount } = listed;
      return {
        result: true,
        message: 'Customers retrieved.',
        data: {
          allList: items.map((c) => ({
            Email: c.email,
            Phone: c.phone,
            create_date: c.created_at,
            customer_id: c.id,
            first_name: c.first_name,
            last_name: c.last_name,
          })),
          page,
          perPage,
          totalCount,
          totalPage: Math.ceil(totalCount / perPage),
          ...cursorFields(listed),
        },
      };
    },
  );

  app.get(
    '/customers/:customerId',
    {
      schema: {
        operationId: 'getCustomer',
        tags,
        summary: 'Read one customer (merchant_key in the JSON body or the query string)',
        params: CustomerParams,
        querystring: CustomerGetQuery,
        response: { 200: CustomerAnswer, ...failures },
      },
    },
    async (request) => {
      const merchant = await merchantByKey(request.unit.store, request.client.id, request.query.merchant_key);
      const customer = await request.unit.store.customers.findById(merchant.id, request.params.customerId);
      if (!customer) throw notFound(`No customer ${request.params.customerId} for this merchant.`);
      return { result: true, message: 'Customer retrieved.', data: asData(customer) };
    },
  );

  app.post(
    '/customers/charge/:customerId',
    {
      schema: {
        operationId: 'chargeCustomer',
        tags,
        summary: 'Charge the card a stored customer last paid one of their pay links with (JSON or text/plain)',
        params: CustomerParams,
        body: ChargeCustomerBody,
        response: { 200: ChargeCustomerAnswer, ...failures },
      },
    },
    async (request) => {
      const merchant = await merchantByKey(request.unit.store, request.client.id, request.body.merchant_key);
      const charge = await chargeCustomer(
        request.unit.store,
        merchant,
        request.params.customerId,
        request.body.amount,
        request.body.order_id,
        clock.now(),
        config.minimumPayment,
      );
      // The customer's receipt, by the phone and address the merchant stored for them.
      return writeWithReceipt(
        request,
        charge,
        { result: true, message: 'Customer charged.', transaction_id: charge.result.id },
        charge.result.id,
        { now: clock.now(), publicUrl: config.publicUrl },
      );
    },
  );
};
